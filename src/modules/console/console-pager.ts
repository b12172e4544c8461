/**
 * A keyset-paged list's links: "Older" with the next cursor, "Newest" back to the first page when
 * on a later one; both keep the page's other query parameters (its filters).
 */
export function pagerLinks(
  base: string,
  kept: Record<string, string>,
  nextCursor: string | null | undefined,
  cursor: string | undefined,
): { next?: string; first?: string } {
  const href = (extra: Record<string, string>) => {
    const search = new URLSearchParams({ ...kept, ...extra }).toString();
    return search ? `${base}?${search}` : base;
  };
  return {
    next: nextCursor ? href({ cursor: nextCursor }) : undefined,
    first: cursor ? href({}) : undefined,
  };
}
