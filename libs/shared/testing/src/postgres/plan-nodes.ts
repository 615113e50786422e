// A node of `EXPLAIN (ANALYZE, FORMAT JSON)` output, with the fields the plan-at-scale specs read:
// they assert on the shape of the plan a connection kept (what it scans, how many rows it read),
// never on its time.
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  Filter?: string;
  Plans?: PlanNode[];
}

// The node and every node under it, depth first.
export const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];
