/**
 * The only routes a kiosk key (token type `kiosk`, `chk_`) reaches (CONTRACT §11): the check-in
 * routes and the event list. Every other route answers a kiosk key 403 `scope_insufficient`, whatever
 * scopes the key holds: its `read:members` serves the household search and nothing else. The list
 * is explicit so that a new route is closed to kiosks until it is named here (a test walks every
 * route of the OpenAPI document with a kiosk key).
 */
export const KIOSK_ROUTES: readonly string[] = [
  'GET /v1/events',
  'GET /v1/check-in/search',
  'POST /v1/check-ins',
  'POST /v1/check-ins/:id/checkout',
];

const allowed = new Set(KIOSK_ROUTES);

/** `method` and the route's Express pattern (`/v1/check-ins/:id/checkout`). */
export function isKioskRoute(method: string, routePath: string | undefined): boolean {
  return routePath !== undefined && allowed.has(`${method.toUpperCase()} ${routePath}`);
}
