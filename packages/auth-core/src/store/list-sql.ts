import { type Expression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import type { EntityModel } from "../config/index.js";
import { ORGANIZATION_ID_FIELD } from "../config/vocabulary.js";
import type { AnyDB } from "./any-db.js";
import { listFieldsOf } from "./list-fields.js";

/** An order other than the default one: a sort key of {@link listFieldsOf}, ascending or descending. */
export interface ListSort {
  readonly field: string;
  readonly descending: boolean;
}

/**
 * One kind of refined list (searched, filtered or sorted): what its SQL depends on, never the
 * values, which are all bound parameters. The SQL of each kind is built once.
 */
export interface ListKind {
  readonly owned: boolean;
  readonly searched: boolean;
  /** The filtered fields, by name (sorted), and whether each is asked to be empty (`IS NULL`) rather than equal to a value. */
  readonly where: readonly (readonly [field: string, isNull: boolean])[];
  /** `createdAt` ascending when the default order. */
  readonly sort: ListSort;
  /** `value`: after a page whose last record holds a value of the sort key; `null`: one that holds none. */
  readonly after: "none" | "value" | "null";
}

/**
 * What a parameter of a refined list's SQL stands for, in order: the organization, the owner, the
 * search pattern (once per searched column), a filter's value, the last position's value or id,
 * the limit, the offset, the count's cap.
 */
export type ListSlot = "organization" | "owner" | "search" | `where:${string}` | "after:value" | "after:id" | "limit" | "offset" | "cap";

/** The SQL of one kind of refined list, and what each of its parameters stands for. */
export interface RefinedSql {
  readonly page: string;
  readonly pageSlots: readonly ListSlot[];
  readonly exact: string;
  readonly capped: string;
  readonly countSlots: readonly ListSlot[];
  readonly cappedSlots: readonly ListSlot[];
}

/** A parameter placeholder while the SQL is built: compiled, it says what the parameter stands for. */
class Slot {
  constructor(readonly name: ListSlot) {}
}

type Where = ExpressionBuilder<AnyDB, string>;
type Select = SelectQueryBuilder<AnyDB, string, Record<string, unknown>>;

/** What each parameter of a compiled query stands for; anything but a slot is a mistake in the builder. */
function slotsOf(parameters: readonly unknown[], table: string): ListSlot[] {
  return parameters.map((parameter) => {
    if (parameter instanceof Slot) return parameter.name;
    throw new Error(`a parameter of a list query of ${table} is not a slot`);
  });
}

/** `lower(column) LIKE lower(?) ESCAPE '\'` for each searched column, any of them: both sides folded by the same function of the database. */
function searchCondition(columns: readonly string[]) {
  return (eb: Where): Expression<SqlBool> =>
    eb.or(columns.map((column) => sql<SqlBool>`lower(${sql.ref(column)}) like lower(${new Slot("search")}) escape '\\'`));
}

/**
 * Only the records after the last position, in the list's order: after a value, greater values
 * (smaller descending), the same value with a greater id (smaller descending), or none (`NULL`s come
 * last); after a record holding none, the records holding none with a greater (smaller) id. A time
 * is never empty: one comparison of the pair, which its index answers.
 */
function keysetCondition(kind: ListKind, nullable: boolean) {
  const column = sql.ref(kind.sort.field);
  const beyond = sql.raw(kind.sort.descending ? "<" : ">");
  const value = () => new Slot("after:value");
  const id = new Slot("after:id");
  return (eb: Where): Expression<SqlBool> => {
    if (!nullable) return eb(eb.refTuple(kind.sort.field, "id"), kind.sort.descending ? "<" : ">", eb.tuple(value(), id));
    if (kind.after === "null") return sql<SqlBool>`(${column} is null and ${sql.ref("id")} ${beyond} ${id})`;
    return sql<SqlBool>`(${column} ${beyond} ${value()} or (${column} = ${value()} and ${sql.ref("id")} ${beyond} ${id}) or ${column} is null)`;
  };
}

/** The rows an entity's refined list may hold, before any position: its organization, its owner, the search and the filters. */
function filteredRows(db: Kysely<AnyDB>, entity: EntityModel, kind: ListKind, ownerColumn: string): Select {
  let query = db.selectFrom(entity.table) as unknown as Select;
  if (entity.tenant) query = query.where(ORGANIZATION_ID_FIELD, "=", new Slot("organization"));
  if (kind.owned) query = query.where(ownerColumn, "=", new Slot("owner"));
  if (kind.searched) query = query.where(searchCondition(listFieldsOf(entity).search));
  for (const [field, isNull] of kind.where) {
    query = isNull ? query.where(field, "is", null) : query.where(field, "=", new Slot(`where:${field}`));
  }
  return query;
}

/**
 * The SQL of a refined list of `entity` (docs/api.md#lists): its page in the kind's order (`NULL`s
 * last, then `id` the same way, so pages never overlap or skip), and its counts. Identifiers are
 * escaped by kysely; every value is a parameter.
 */
export function refinedListSql(db: Kysely<AnyDB>, entity: EntityModel, kind: ListKind, ownerColumn: string): RefinedSql {
  const query = filteredRows(db, entity, kind, ownerColumn);
  const { field, descending } = kind.sort;
  const nullable = listFieldsOf(entity).sort.get(field) !== null;
  const direction = descending ? "desc" : "asc";
  const keyed = kind.after === "none" ? query : query.where(keysetCondition(kind, nullable));
  let ordered = keyed.selectAll();
  if (nullable) ordered = ordered.orderBy(sql`${sql.ref(field)} is null`);
  ordered = ordered
    .orderBy(field, direction)
    .orderBy("id", direction)
    .limit(sql<number>`${new Slot("limit")}`);
  const page = (kind.after === "none" ? ordered.offset(sql<number>`${new Slot("offset")}`) : ordered).compile();
  const exact = query.select((eb) => eb.fn.countAll<number | string>().as("total")).compile();
  const capped = db
    .selectFrom(
      query
        .select("id")
        .limit(sql<number>`${new Slot("cap")}`)
        .as("capped"),
    )
    .select((eb) => eb.fn.countAll<number | string>().as("total"))
    .compile();
  return {
    page: page.sql,
    pageSlots: slotsOf(page.parameters, entity.table),
    exact: exact.sql,
    capped: capped.sql,
    countSlots: slotsOf(exact.parameters, entity.table),
    cappedSlots: slotsOf(capped.parameters, entity.table),
  };
}
