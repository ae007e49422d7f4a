import { collectionPath } from "@domain-auth/core/policy";
import Link from "next/link";
import { openPage } from "@/lib/page-access";

/** Home: what this service holds and where to go next. */
export default async function HomePage() {
  const { view } = await openPage("home");
  const { auth } = view;
  return (
    <section>
      <h1>{view.name}</h1>
      <p className="lead">
        {auth
          ? `Accounts are ${auth.entityName} records; roles: ${auth.roles.join(", ") || "none"}.`
          : "This service has no sign-in: every record is open."}
      </p>
      <div className="actions">
        {auth?.endpoints.login ? (
          <Link className="button button-primary" href="/login">
            Sign in
          </Link>
        ) : null}
        {auth?.endpoints.register ? (
          <Link className="button" href="/register">
            Create an account
          </Link>
        ) : null}
        <Link className="button" href={auth ? "/profile" : "/admin"}>
          {auth ? "Your profile" : "Browse records"}
        </Link>
      </div>
      <h2>API</h2>
      <ul className="endpoint-list">
        {auth ? (
          <li>
            <code>{collectionPath(auth)}</code> — {auth.entityName} accounts
          </li>
        ) : null}
        {view.entities.map((entity) => (
          <li key={entity.segment}>
            <code>{collectionPath(entity)}</code> — {entity.name} records
          </li>
        ))}
      </ul>
    </section>
  );
}
