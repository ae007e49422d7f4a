import type { MfaModel } from "@domain-auth/core/config";
import { ENDPOINTS } from "@domain-auth/core/vocabulary";
import { isMap, isScalar, isSeq, type Node, type Pair, parseDocument, type YAMLMap } from "yaml";
import type { AuthChoices } from "./auth-choices.js";
import { type CredentialField, credentialEntities, readDomainState } from "./domain-state.js";
import { managedPreset, type PresetProvider } from "./providers.js";
import {
  appendBlock,
  applyTextEdits,
  indentUnitOf,
  insertPair,
  removePair,
  renderFlowList,
  renderFlowMap,
  renderScalar,
  replaceList,
  replaceNode,
  type TextEdit,
} from "./text-edits.js";

/** How a credential field the user agreed to add is declared. */
export const CREDENTIAL_DECLARATIONS: Readonly<Record<CredentialField, Record<string, string | boolean>>> = {
  email: { type: "string", required: true, unique: true },
  password: { type: "string", required: true },
};

/** The order of the keys of the `auth` block, for placing a new key among existing ones. */
const AUTH_KEY_ORDER = ["type", "entity", "roles", "endpoints", "verifyEmail", "mfa", "providers", "organizations"] as const;
/** The order of the keys of `auth.mfa`. */
const MFA_KEY_ORDER = ["totp", "passkeys", "required"] as const;
type MfaKey = (typeof MFA_KEY_ORDER)[number];

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((pair) => isScalar(pair.key) && pair.key.value === key);
}

function scalarText(node: unknown): string | undefined {
  return isScalar(node) ? String(node.value) : undefined;
}

/** A pair of a map as the source writes it, from its key to the end of its value. */
function pairSourceText(source: string, pair: Pair): string {
  const [start, keyEnd] = (pair.key as Node).range ?? [0, 0];
  return source.slice(start, (pair.value as Node | null)?.range?.[1] ?? keyEnd);
}

/** Whether a node is a list of exactly `values`, in that order. */
function isListOf(node: unknown, values: readonly string[]): boolean {
  const current = isSeq(node) ? node.items.map(scalarText) : undefined;
  return current?.length === values.length && current.every((value, index) => value === values[index]);
}

/** The pair after which `key` goes: the last existing key that comes before it in `order`; `null` for first. */
function anchorFor(map: YAMLMap, key: string, order: readonly string[]): Pair | null {
  const before = order.slice(0, order.indexOf(key));
  const anchors = map.items.filter((pair) => isScalar(pair.key) && before.includes(String(pair.key.value)));
  return anchors.at(-1) ?? null;
}

function setScalarPair(source: string, map: YAMLMap, key: string, value: string | boolean, order: readonly string[]): TextEdit[] {
  const pair = pairOf(map, key);
  if (!pair) return [insertPair(source, map, key, renderScalar(value), anchorFor(map, key, order))];
  if (scalarText(pair.value) === String(value)) return [];
  return [isScalar(pair.value) ? replaceNode(pair.value, renderScalar(value)) : replacePairValue(source, map, pair, renderScalar(value))];
}

/** Replaces a pair's value with `text`; a pair without one (`key:`) is written again whole, so a space follows the colon. */
function replacePairValue(source: string, map: YAMLMap, pair: Pair, text: string): TextEdit {
  const value = pair.value as Node | null;
  if (value?.range && value.range[0] < value.range[1]) return replaceNode(value, text);
  const key = String((pair.key as { value: unknown }).value);
  return { ...removePair(source, map, pair), text: insertPair(source, map, key, text).text };
}

function roleDefaultEdits(source: string, fields: YAMLMap, defaultRole: string | null): TextEdit[] {
  const rolePair = pairOf(fields, "role");
  if (!rolePair)
    return defaultRole === null ? [] : [insertPair(source, fields, "role", renderFlowMap({ type: "string", default: defaultRole }))];
  const role = rolePair.value;
  if (isScalar(role)) {
    return defaultRole === null ? [] : [replaceNode(role, renderFlowMap({ type: String(role.value), default: defaultRole }))];
  }
  if (!isMap(role)) return [];
  const defaultPair = pairOf(role, "default");
  if (defaultRole === null) return defaultPair ? [removePair(source, role, defaultPair)] : [];
  return setScalarPair(source, role, "default", defaultRole, ["type", "default"]);
}

function entityEdits(source: string, root: YAMLMap, choices: AuthChoices): TextEdit[] {
  const entities = root.get("entities", true);
  const entity = isMap(entities) ? entities.get(choices.entity, true) : undefined;
  const fields = isMap(entity) ? entity.get("fields", true) : undefined;
  if (!isMap(fields)) return [];
  return [
    ...choices.addFields
      .filter((field) => !pairOf(fields, field))
      .map((field) => insertPair(source, fields, field, renderFlowMap(CREDENTIAL_DECLARATIONS[field]))),
    ...roleDefaultEdits(source, fields, choices.defaultRole),
  ];
}

/** Whether `auth.entity` must be written: the chosen entity is not the one detection would find. */
function needsExplicitEntity(source: string, choices: AuthChoices): boolean {
  const state = readDomainState(source);
  if (!state) return true;
  const candidates = new Set(credentialEntities(state));
  if (choices.addFields.length > 0) candidates.add(choices.entity);
  return !(candidates.size === 1 && candidates.has(choices.entity));
}

function endpointsEdits(source: string, auth: YAMLMap, choices: AuthChoices): TextEdit[] {
  const pair = pairOf(auth, "endpoints");
  const allOn = ENDPOINTS.every((name) => choices.endpoints[name]);
  if (!pair)
    return allOn
      ? []
      : [insertPair(source, auth, "endpoints", renderFlowMap(choices.endpoints), anchorFor(auth, "endpoints", AUTH_KEY_ORDER))];
  const endpoints = pair.value;
  if (!isMap(endpoints)) return [replacePairValue(source, auth, pair, renderFlowMap(choices.endpoints))];
  return ENDPOINTS.flatMap((name) => {
    const wanted = choices.endpoints[name];
    if (!pairOf(endpoints, name) && wanted) return [];
    return setScalarPair(source, endpoints, name, wanted, ENDPOINTS);
  });
}

/** What `auth.mfa` must say for `mfa`: the factors that are off and the required roles; defaults are left out. */
function mfaDeclaration(mfa: MfaModel): Partial<Record<MfaKey, boolean | readonly string[]>> {
  return {
    ...(!mfa.totp && { totp: false }),
    ...(!mfa.passkeys && { passkeys: false }),
    ...(mfa.required.length > 0 && { required: mfa.required }),
  };
}

function mfaValueText(mfa: MfaModel, key: MfaKey): string {
  return key === "required" ? renderFlowList(mfa.required) : renderScalar(mfa[key]);
}

function isMfaKey(key: unknown): key is MfaKey {
  return (MFA_KEY_ORDER as readonly unknown[]).includes(key);
}

/**
 * A flow `auth.mfa` map rewritten whole: its keys in their order with the values `mfa` gives (other
 * keys as written), `dropped` left out, `added` after the last key that comes before them.
 */
function mfaFlowText(
  source: string,
  block: YAMLMap,
  mfa: MfaModel,
  change: { dropped: readonly MfaKey[]; added: readonly MfaKey[] },
): string {
  const entries = block.items.flatMap((pair): [unknown, string][] => {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    if (isMfaKey(key)) return change.dropped.includes(key) ? [] : [[key, `${key}: ${mfaValueText(mfa, key)}`]];
    return [[key, pairSourceText(source, pair)]];
  });
  for (const key of change.added) {
    const before = MFA_KEY_ORDER.slice(0, MFA_KEY_ORDER.indexOf(key));
    const anchor = entries.findLastIndex(([existing]) => (before as readonly unknown[]).includes(existing));
    entries.splice(anchor + 1, 0, [key, `${key}: ${mfaValueText(mfa, key)}`]);
  }
  return `{ ${entries.map(([, text]) => text).join(", ")} }`;
}

/**
 * The edits that make `auth.mfa` say what `mfa` does: written only where it differs from the
 * defaults (or the file has the key already), `required` taken out when no role is left in it, and
 * the whole block taken out when nothing is left in it.
 */
function mfaEdits(source: string, auth: YAMLMap, mfa: MfaModel): TextEdit[] {
  const declaration = mfaDeclaration(mfa);
  const empty = Object.keys(declaration).length === 0;
  const pair = pairOf(auth, "mfa");
  if (!pair) return empty ? [] : [insertPair(source, auth, "mfa", renderFlowMap(declaration), anchorFor(auth, "mfa", AUTH_KEY_ORDER))];
  const block = pair.value;
  if (!isMap(block)) return [empty ? removePair(source, auth, pair) : replacePairValue(source, auth, pair, renderFlowMap(declaration))];

  const holds = (key: MfaKey, value: unknown) =>
    key === "required" ? isListOf(value, mfa.required) : scalarText(value) === String(mfa[key]);
  const present = MFA_KEY_ORDER.filter((key) => pairOf(block, key));
  const differ = present.filter((key) => !holds(key, pairOf(block, key)?.value));
  const dropped = differ.filter((key) => key === "required" && mfa.required.length === 0);
  const changed = differ.filter((key) => !dropped.includes(key));
  const added = MFA_KEY_ORDER.filter((key) => !present.includes(key) && key in declaration);
  if (dropped.length + changed.length + added.length === 0) return [];
  if (dropped.length === block.items.length && added.length === 0) return [removePair(source, auth, pair)];
  if (block.flow) return [replaceNode(block, mfaFlowText(source, block, mfa, { dropped, added }))];
  return [
    ...[...changed, ...added].flatMap((key): TextEdit[] => {
      if (key !== "required") return setScalarPair(source, block, key, mfa[key], MFA_KEY_ORDER);
      const required = pairOf(block, key);
      if (!required) return [insertPair(source, block, key, renderFlowList(mfa.required), anchorFor(block, key, MFA_KEY_ORDER))];
      return [
        isSeq(required.value)
          ? replaceList(source, required.value, mfa.required)
          : replacePairValue(source, block, required, renderFlowList(mfa.required)),
      ];
    }),
    // Last: a removal that starts where an insertion goes is then applied before it.
    ...dropped.map((key) => removePair(source, block, pairOf(block, key) as Pair)),
  ];
}

/** `{ type: google }`: a preset's declaration, as the wizard writes it under the preset's own id. */
function presetValueText(type: PresetProvider): string {
  return renderFlowMap({ type });
}

/** `google: { type: google }`: a preset's entry in a flow map. */
function presetEntryText(type: PresetProvider): string {
  return `${type}: ${presetValueText(type)}`;
}

/** A flow map of entries: `{ google: { type: google }, github: { type: github } }`. */
function flowMapText(entries: readonly string[]): string {
  return `{ ${entries.join(", ")} }`;
}

/** The preset a provider of the file is when the wizard manages it: declared under its own id. */
function managedPresetOf(pair: Pair): PresetProvider | undefined {
  const type = isMap(pair.value) ? scalarText(pair.value.get("type", true)) : undefined;
  return managedPreset(scalarText(pair.key), type);
}

/**
 * The edits that make `auth.providers` declare the chosen presets: each one not declared yet is added
 * under its own id (in the order chosen), a preset declared under its own id that is not chosen is
 * taken out, and every other provider stays as it is written. The key is created when missing and
 * taken out when nothing is left in it; a flow map is rewritten whole, a block map edited line by line.
 */
function providersEdits(source: string, auth: YAMLMap, chosen: readonly PresetProvider[]): TextEdit[] {
  const pair = pairOf(auth, "providers");
  const wanted = chosen.map(presetEntryText);
  if (!pair) {
    if (chosen.length === 0) return [];
    return [insertPair(source, auth, "providers", flowMapText(wanted), anchorFor(auth, "providers", AUTH_KEY_ORDER))];
  }
  const providers = pair.value;
  if (!isMap(providers))
    return [chosen.length === 0 ? removePair(source, auth, pair) : replacePairValue(source, auth, pair, flowMapText(wanted))];

  const declared = providers.items.map((item) => scalarText(item.key));
  const added = chosen.filter((type) => !declared.includes(type));
  const removed = providers.items.filter((item) => {
    const preset = managedPresetOf(item);
    return preset !== undefined && !chosen.includes(preset);
  });
  if (added.length + removed.length === 0) return [];
  if (removed.length === providers.items.length && added.length === 0) return [removePair(source, auth, pair)];
  if (providers.flow) {
    const kept = providers.items.filter((item) => !removed.includes(item)).map((item) => pairSourceText(source, item));
    return [replaceNode(providers, flowMapText([...kept, ...added.map(presetEntryText)]))];
  }
  return [
    ...added.map((type) => insertPair(source, providers, type, presetValueText(type))),
    ...removed.map((item) => removePair(source, providers, item)),
  ];
}

/** `{ roles: [Owner, Manager, Member] }`: a new `auth.organizations`, its `manage` and `create` left to their defaults. */
function organizationsValueText(roles: readonly string[]): string {
  return renderFlowMap({ roles });
}

/**
 * The edits that make `auth.organizations` declare `roles`: the key is added with just its `roles`
 * when missing, taken out for `[]`; in an existing map only the `roles` list changes (in its own
 * style, flow or block), so `manage`, `create` and every comment stay as written.
 */
function organizationsEdits(source: string, auth: YAMLMap, roles: readonly string[]): TextEdit[] {
  const pair = pairOf(auth, "organizations");
  if (!pair) {
    if (roles.length === 0) return [];
    return [insertPair(source, auth, "organizations", organizationsValueText(roles), anchorFor(auth, "organizations", AUTH_KEY_ORDER))];
  }
  if (roles.length === 0) return [removePair(source, auth, pair)];
  const organizations = pair.value;
  if (!isMap(organizations)) return [replacePairValue(source, auth, pair, organizationsValueText(roles))];
  const rolesPair = pairOf(organizations, "roles");
  if (!rolesPair) return [insertPair(source, organizations, "roles", renderFlowList(roles), null)];
  if (isListOf(rolesPair.value, roles)) return [];
  return [
    isSeq(rolesPair.value)
      ? replaceList(source, rolesPair.value, roles)
      : replacePairValue(source, organizations, rolesPair, renderFlowList(roles)),
  ];
}

function authBlockEdits(source: string, auth: YAMLMap, choices: AuthChoices): TextEdit[] {
  const jwt = choices.type === "jwt";
  const edits = setScalarPair(source, auth, "type", choices.type, AUTH_KEY_ORDER);
  if (jwt && (pairOf(auth, "entity") || needsExplicitEntity(source, choices))) {
    edits.push(...setScalarPair(source, auth, "entity", choices.entity, AUTH_KEY_ORDER));
  }
  const rolesPair = pairOf(auth, "roles");
  if (rolesPair) {
    if (!isListOf(rolesPair.value, choices.roles)) {
      edits.push(
        isSeq(rolesPair.value)
          ? replaceList(source, rolesPair.value, choices.roles)
          : replacePairValue(source, auth, rolesPair, renderFlowList(choices.roles)),
      );
    }
  } else if (choices.roles.length > 0) {
    edits.push(insertPair(source, auth, "roles", renderFlowList(choices.roles), anchorFor(auth, "roles", AUTH_KEY_ORDER)));
  }
  if (jwt) edits.push(...endpointsEdits(source, auth, choices));
  // Written when turned on, or when the file says it already (false is the default).
  if (jwt && (choices.verifyEmail || pairOf(auth, "verifyEmail")))
    edits.push(...setScalarPair(source, auth, "verifyEmail", choices.verifyEmail, AUTH_KEY_ORDER));
  if (jwt) edits.push(...mfaEdits(source, auth, choices.mfa));
  if (jwt && choices.providers) edits.push(...providersEdits(source, auth, choices.providers));
  if (jwt && choices.organizations) edits.push(...organizationsEdits(source, auth, choices.organizations));
  return edits;
}

function newAuthLines(source: string, choices: AuthChoices): string[] {
  const jwt = choices.type === "jwt";
  const lines = [`type: ${renderScalar(choices.type)}`];
  if (jwt && needsExplicitEntity(source, choices)) lines.push(`entity: ${renderScalar(choices.entity)}`);
  if (choices.roles.length > 0) lines.push(`roles: ${renderFlowList(choices.roles)}`);
  if (jwt && !ENDPOINTS.every((name) => choices.endpoints[name])) lines.push(`endpoints: ${renderFlowMap(choices.endpoints)}`);
  if (jwt && choices.verifyEmail) lines.push("verifyEmail: true");
  const mfa = mfaDeclaration(choices.mfa);
  if (jwt && Object.keys(mfa).length > 0) lines.push(`mfa: ${renderFlowMap(mfa)}`);
  if (jwt && choices.providers?.length) lines.push(`providers: ${flowMapText(choices.providers.map(presetEntryText))}`);
  if (jwt && choices.organizations?.length) lines.push(`organizations: ${organizationsValueText(choices.organizations)}`);
  return lines;
}

/**
 * Writes the answers into a `domain.yaml` text: the `auth` block, the auth entity's `role` default and
 * the credential fields to add. Every other byte is kept (comments, order, spacing); when nothing
 * changes, the same text comes back.
 *
 * @throws {Error} when the text is not YAML whose root is a map.
 */
export function applyAuthChoices(source: string, choices: AuthChoices): string {
  const document = parseDocument(source);
  if (document.errors.length > 0) throw new Error(`not valid YAML: ${document.errors[0]?.message}`);
  const root = document.contents;
  if (!isMap(root)) throw new Error("the root of domain.yaml must be a map");

  const edits = choices.type === "jwt" ? entityEdits(source, root, choices) : [];
  const authPair = pairOf(root, "auth");
  const indent = indentUnitOf(source, root);
  if (!authPair) {
    edits.push(appendBlock(source, "auth", newAuthLines(source, choices), indent));
  } else if (isMap(authPair.value)) {
    edits.push(...authBlockEdits(source, authPair.value, choices));
  } else {
    const block = newAuthLines(source, choices).map((line) => `${indent}${line}\n`);
    edits.push({ ...removePair(source, root, authPair), text: `auth:\n${block.join("")}` });
  }
  return applyTextEdits(source, edits);
}
