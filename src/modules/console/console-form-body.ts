import { formBody } from '../oauth/oauth-form-body';

/** The console's forms: every POST under /console is `application/x-www-form-urlencoded`, read before the JSON pipeline. */
export const consoleFormBody = formBody(
  (method, path) => method === 'POST' && (path === '/console' || path.toLowerCase().startsWith('/console/')),
);
