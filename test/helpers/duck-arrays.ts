/**
 * A DuckDB query's rows as arrays of JSON values, on one in-memory instance a test file shares
 * (made at its first query, closed after the file's tests).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll } from 'vitest';

export function useDuckArrays(): (sql: string) => Promise<unknown[][]> {
  let db: DuckDBInstance | undefined;
  afterAll(() => db?.closeSync());
  return async (sql) => {
    db ??= await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      return (await c.runAndReadAll(sql)).getRowsJson() as unknown[][];
    } finally {
      c.closeSync();
    }
  };
}
