import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { TenantContext } from '../../src/common/context/tenant-context';
import type { TestApi } from './api';
import { inTenant } from './factories';

/** A node of PostgreSQL's `EXPLAIN (FORMAT JSON)`: the fields the tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  'Actual Rows'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** The node and every node below it, depth first. */
export const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** `Index Only Scan using x on t > …`: a plan as one line to match. */
export const planSummary = (plan: PlanNode): string =>
  nodesOf(plan)
    .map(
      (n) =>
        `${n['Node Type']}${n['Index Name'] ? ` using ${n['Index Name']}` : ''}${n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}`,
    )
    .join(' > ');

/**
 * The one query the API runs for `request` whose SQL `matches` (captured from the driver), EXPLAINed
 * in the church's transaction (the app's role, under row-level security, as the request ran it);
 * with the request's own answer.
 */
export async function explainQueryOf<T>(
  api: TestApi,
  tenantId: string,
  request: () => Promise<T>,
  matches: (sql: string) => boolean,
): Promise<{ plan: PlanNode; answer: T }> {
  const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
  let answer: T;
  let query: [string, unknown[]];
  try {
    answer = await request();
    const calls = spy.mock.calls.filter(([sql]) => matches(sql));
    expect(calls).toHaveLength(1);
    query = [calls[0][0], (calls[0][1] as unknown[] | undefined) ?? []];
  } finally {
    spy.mockRestore();
  }
  const plan = await inTenant(api, tenantId, () =>
    TenantContext.current().manager.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }[]>(
      `EXPLAIN (FORMAT JSON) ${query[0]}`,
      query[1],
    ),
  );
  return { plan: plan[0]['QUERY PLAN'][0].Plan, answer };
}

/** The page query of a member list (`FROM "members" … LIMIT 51`). */
export const MEMBERS_PAGE = (sql: string) => /FROM "members"/.test(sql) && /LIMIT 51/.test(sql);
