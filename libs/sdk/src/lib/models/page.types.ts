export interface PageQuery {
  limit?: number; // 1..50, default 50
  offset?: number; // default 0
}

export interface Page<T> {
  items: T[];
  total: number; // X-Total-Count: all items, not only this page
}
