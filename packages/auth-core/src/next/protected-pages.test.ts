import { describe, expect, it } from "vitest";
import { protectedPageOf } from "./index.js";

describe("protectedPageOf: which entry of withSession's protect covers a path", () => {
  const dashboard = { path: "/dashboard" };
  const reports = { path: "/reports/", roles: ["Admin"] };
  const home = { path: "/" };
  const protect = [dashboard, reports, home];

  it.each([
    ["/dashboard", dashboard],
    ["/dashboard/settings", dashboard],
    // What the router routes, not how it was spelt.
    ["/%64ashboard", dashboard],
    ["/reports", reports],
    ["/reports/2026/q3", reports],
    ["/", home],
    ["/dashboards", undefined],
    ["/login", undefined],
    ["/dash", undefined],
    ["/%E0%A4%A", undefined],
  ])("%s → %o", (path, page) => {
    expect(protectedPageOf(protect, path)).toBe(page);
  });
});
