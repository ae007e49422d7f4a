"use client";

import { type ApiKey, describeScopes } from "@/lib/domain-auth/api-keys";
import { formatValue } from "@/lib/domain-auth/format";

/** Props of {@link ApiKeyList}. */
export interface ApiKeyListProps {
  readonly items: readonly ApiKey[] | null;
  /** Whose keys, for the list's name: "Your API keys", "API keys of ann@example.com". */
  readonly label: string;
  readonly onRevoke: (key: ApiKey) => void;
}

function expiry(key: ApiKey): string {
  if (key.expiresAt === null) return "Never";
  return `${formatValue(key.expiresAt)}${Date.parse(key.expiresAt) <= Date.now() ? " (expired)" : ""}`;
}

/** API keys (name, what each may do, created, expires, last used), each with "Revoke"; never a key itself. */
export function ApiKeyList({ items, label, onRevoke }: ApiKeyListProps) {
  if (items === null) return <p className="da-field-hint">Loading…</p>;
  if (items.length === 0) return <p>No API keys.</p>;
  return (
    <ul className="da-sessions" aria-label={label}>
      {items.map((key) => (
        <li key={key.id} className="da-session">
          <div className="da-session-head">
            <strong>{key.name}</strong>
            <button
              type="button"
              className="da-button da-button-danger"
              aria-label={`Revoke the API key ${key.name}`}
              onClick={() => onRevoke(key)}
            >
              Revoke
            </button>
          </div>
          <dl className="da-session-times">
            {[
              ["May do", describeScopes(key.scopes)],
              ["Created", formatValue(key.createdAt)],
              ["Expires", expiry(key)],
              ["Last used", key.lastUsedAt ? formatValue(key.lastUsedAt) : "Never"],
            ].map(([term, value]) => (
              <div key={term}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ul>
  );
}
