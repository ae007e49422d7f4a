import { describe, expect, it } from "vitest";
import { newTsconfig, tsconfigExtending } from "./tsconfig.js";

describe("tsconfig.json", () => {
  it("is create-next-app's, with the @/* alias on the source folder", () => {
    expect(JSON.parse(newTsconfig("")).compilerOptions.paths).toEqual({ "@/*": ["./*"] });
    expect(JSON.parse(newTsconfig("src/")).compilerOptions.paths).toEqual({ "@/*": ["./src/*"] });
  });

  it("extends a jsconfig.json with the same settings, leaving the alias to it", () => {
    const extending = JSON.parse(tsconfigExtending("jsconfig.json"));
    const { paths: _paths, ...settings } = JSON.parse(newTsconfig("")).compilerOptions;
    expect(extending).toEqual({ ...JSON.parse(newTsconfig("")), extends: "./jsconfig.json", compilerOptions: settings });
    expect(Object.keys(extending)[0]).toBe("extends");
  });
});
