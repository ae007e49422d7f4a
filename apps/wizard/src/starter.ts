/** A service name for the starter file, from the folder's name (`My App` → `my-app`), else `app`. */
export function serviceNameFrom(folderName: string): string {
  const name = folderName
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, "");
  return name.length > 0 ? name : "app";
}

/**
 * The `domain.yaml` offered when a folder has none: one `User` entity with credentials and a role,
 * and a jwt `auth` block the wizard's answers then adjust.
 */
export function starterDomainText(serviceName: string): string {
  return `# The entities of this API and how callers authenticate.
# Check it any time with: npx create-domain-auth validate domain.yaml
name: ${serviceName}
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      name: string
      role: { type: string, default: Member }
auth:
  type: jwt
  roles: [Admin, Member]
`;
}
