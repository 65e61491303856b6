// The unit of work: runs a service's writes in one transaction, handing it repositories bound to
// that transaction. A service declares the repositories it writes through (`Transact<R>`).
import type { Kysely } from 'kysely';
import type { DB } from './schema.js';

/** Runs `work` in one transaction: everything it writes lands together or not at all. */
export type Transact<R> = <T>(work: (repos: R) => Promise<T>) => Promise<T>;

/** A Transact that builds the repositories `bind` makes on each transaction's connection. */
export function transactor<R>(db: Kysely<DB>, bind: (db: Kysely<DB>) => R): Transact<R> {
  return (work) => db.transaction().execute((trx) => work(bind(trx)));
}
