import { type DomainModel, validateDomainText } from "@domain-auth/core/config";

/** The README's blog example. */
export const BLOG_YAML = `name: blog
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      name: string
      role: { type: string, default: Reader }
    permissions:
      read: [Admin, "@Owner"]
      update: [Admin, "@Owner"]
      delete: [Admin]
  Post:
    owner: author
    fields:
      title: { type: string, required: true, maxLength: 200 }
      body: text
      published: { type: boolean, default: false }
      author: { type: ref, to: User }
    permissions:
      create: [Editor, Admin]
      read: ["*"]
      update: ["@Owner", Admin]
      delete: [Admin]
auth:
  type: jwt
  entity: User
  roles: [Admin, Editor, Reader]
  endpoints: { login: true, register: true, me: true, setup: true }
`;

/** Resolves a domain.yaml text, failing loudly when it does not validate. */
export function domainOf(yaml: string): DomainModel {
  const { model, diagnostics } = validateDomainText(yaml);
  if (!model) throw new Error(`test domain is invalid: ${JSON.stringify(diagnostics)}`);
  return model;
}

/** A secret for tests (32+ bytes). */
export const TEST_SECRET = "test-secret-that-is-long-enough-for-hs256!";

/**
 * The blog with organizations (docs/organizations.md): projects and their tasks belong to an
 * organization; posts do not.
 */
export const TEAMS_YAML = `name: teams
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      name: string
      role: { type: string, default: Reader }
  Post:
    owner: author
    fields:
      title: { type: string, required: true, maxLength: 200 }
      author: { type: ref, to: User }
    permissions:
      create: [Editor, Admin]
      read: ["*"]
      update: ["@Owner", Admin]
      delete: [Admin]
  Project:
    tenant: true
    fields:
      title: { type: string, required: true, maxLength: 200 }
      budget: integer
    permissions:
      create: ["@Member(Owner, Manager)"]
      read: ["@Member", Admin]
      update: ["@Member(Owner, Manager)", "@Owner"]
      delete: ["@Member(Owner)"]
  Task:
    tenant: true
    fields:
      title: { type: string, required: true }
      project: { type: ref, to: Project }
auth:
  type: jwt
  entity: User
  roles: [Admin, Editor, Reader]
  organizations:
    roles: [Owner, Manager, Member]
    manage: [Owner, Manager]
`;
