/** The date-form version label of the API, carried by every webhook payload (`api_version`). */
export const API_VERSION = '2026-01-01';
