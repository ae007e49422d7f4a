import { apiPaths, collectionPath, OPENAPI_PATH } from "@domain-auth/core/policy";
import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { AuthFrame } from "@/components/domain-auth/auth-frame";
import type { AuthView, DomainView } from "@/lib/domain-auth/domain-view";
import { loadPageState } from "@/lib/domain-auth/page-access";
import { GetStarted } from "./get-started";

/** The tab says which service this is: the domain's `name`. */
export async function generateMetadata(): Promise<Metadata> {
  const { view } = await loadPageState();
  return { title: view.name };
}

/**
 * The sample's home page, the first thing `npm start` shows: the service's name, its entities and
 * roles, where its API lives, and where to go next (`/setup` while setup is open, else sign-in, or
 * for someone signed in their profile and what their role may open). Read per request from the
 * running server's model, like the auth pages. It stands for a page of the project's own, so it
 * shows the session without keeping it alive.
 */
export default function HomePage() {
  // Read per request: with cacheComponents on, the page's shell is prerendered and this part streams in.
  return (
    <Suspense fallback={null}>
      <Home />
    </Suspense>
  );
}

async function Home() {
  const { view, setupRequired } = await loadPageState();
  const { auth } = view;
  return (
    <AuthFrame keepSessionAlive={false}>
      <section>
        <h1>{view.name}</h1>
        <p className="da-lead">
          {auth
            ? "An API with sign-in, users and roles, described in domain.yaml and served by domain-auth."
            : "An API described in domain.yaml and served by domain-auth, open to all (auth.type: none)."}
        </p>
        {setupRequired ? <SetupNotice setupRole={auth?.setupRole} /> : <GetStarted view={view} />}
        <EntitiesCard view={view} />
        {auth ? <RolesCard auth={auth} /> : null}
        <ApiCard auth={auth} />
      </section>
    </AuthFrame>
  );
}

/** While setup is open: the way to create the first administrator. */
function SetupNotice({ setupRole }: { readonly setupRole: string | undefined }) {
  return (
    <div className="da-notice home-setup">
      <h2>Setup is open</h2>
      <p>Nobody can sign in yet. The first account created here is the administrator ({setupRole}).</p>
      <p>
        <Link className="da-button da-button-primary" href="/setup">
          Create the first administrator
        </Link>
      </p>
    </div>
  );
}

/** Each entity with its API path and fields, the accounts first. */
function EntitiesCard({ view }: { readonly view: DomainView }) {
  const { auth } = view;
  return (
    <div className="da-card">
      <h2>Entities</h2>
      <div className="da-table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Entity</th>
              <th scope="col">API</th>
              <th scope="col">Fields</th>
            </tr>
          </thead>
          <tbody>
            {auth ? (
              <tr>
                <td>{auth.entityName}</td>
                <td>
                  <code>{collectionPath(auth)}</code>
                </td>
                <td>email, password, role{auth.profileFields.map((field) => `, ${field.name}`).join("")} (the accounts)</td>
              </tr>
            ) : null}
            {view.entities.map((entity) => (
              <tr key={entity.name}>
                <td>{entity.name}</td>
                <td>
                  {/* A tenant entity's records live under an organization: `{orgId}` stands for its id. */}
                  <code>{entity.tenant ? decodeURIComponent(collectionPath(entity, {}, "{orgId}")) : collectionPath(entity)}</code>
                </td>
                <td>{[...entity.fields.map((field) => field.name), ...(entity.ownerField ? [entity.ownerField] : [])].join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** The roles, marking the administrators' and the one new accounts get. */
function RolesCard({ auth }: { readonly auth: AuthView }) {
  return (
    <div className="da-card">
      <h2>Roles</h2>
      <ul className="home-roles">
        {auth.roles.map((role) => (
          <li key={role}>
            <strong>{role}</strong>
            {role === auth.setupRole ? " — administrators: the first account, and the admin page" : null}
            {role === auth.defaultRole ? " — given to new accounts" : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Where the API lives: its base path, the sign-in endpoint and the OpenAPI document. */
function ApiCard({ auth }: { readonly auth: AuthView | null }) {
  return (
    <div className="da-card">
      <h2>The API</h2>
      <dl className="da-details">
        <div>
          <dt>Base path</dt>
          <dd>
            <code>/api/</code>
          </dd>
        </div>
        {auth?.endpoints.login ? (
          <div>
            <dt>Sign-in</dt>
            <dd>
              <code>POST {apiPaths(auth).login}</code>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>OpenAPI document</dt>
          <dd>
            <a href={OPENAPI_PATH}>
              <code>{OPENAPI_PATH}</code>
            </a>
          </dd>
        </div>
      </dl>
      <p>
        <Link href="/docs">Browse the API reference</Link> and try each request from the browser.
      </p>
    </div>
  );
}
