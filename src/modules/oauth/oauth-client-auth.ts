import type { Request } from 'express';
import type { FormBody } from '../../common/http/request';
import { OAuthError } from './oauth-error';

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface ClientCredentials {
  clientId: string;
  secret: string | null;
  method: ClientAuthMethod;
}

type Fields = FormBody['fields'];

/**
 * One form parameter (RFC 6749 §3.1, §3.2): a parameter sent twice is an `invalid_request`, and one
 * sent without a value counts as omitted.
 */
export function formParam(fields: Fields, name: string): string | undefined {
  const value = Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : undefined;
  if (Array.isArray(value))
    throw new OAuthError(
      'invalid_request',
      `${name} is sent more than once (each parameter at most once, RFC 6749 §3.2)`,
    );
  return value === undefined || value === '' ? undefined : value;
}

/** RFC 6749 §2.3.1: the Basic user and password are form-urlencoded before base64. */
function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

function basicCredentials(header: string): { id: string; secret: string } {
  const encoded = /^Basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(header)?.[1];
  const decoded = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 1)
    throw new OAuthError(
      'invalid_client',
      'the Authorization header is not Basic credentials of the form base64(client_id:client_secret)',
      true,
    );
  try {
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError(
      'invalid_client',
      'the Basic credentials are not valid form-urlencoded text (RFC 6749 §2.3.1)',
      true,
    );
  }
}

/**
 * Who the client says it is, and how it proves it: `client_secret_basic` (Authorization: Basic),
 * `client_secret_post` (client_id and client_secret in the body) or `none` (a public client sends
 * client_id only). Other Authorization schemes (a Bearer token) are not client authentication and
 * are ignored. Whether the client exists and the secret matches is checked by the caller.
 */
export function readClientCredentials(req: Request, fields: Fields): ClientCredentials {
  const header = req.headers.authorization;
  const bodyId = formParam(fields, 'client_id');
  const bodySecret = formParam(fields, 'client_secret');
  if (header && /^Basic(\s|$)/i.test(header)) {
    const basic = basicCredentials(header);
    if (bodySecret !== undefined)
      throw new OAuthError(
        'invalid_request',
        'the client authenticates twice (Authorization: Basic and client_secret in the body); use one method',
      );
    if (bodyId !== undefined && bodyId !== basic.id)
      throw new OAuthError('invalid_request', 'client_id in the body differs from the one in the Authorization header');
    return { clientId: basic.id, secret: basic.secret === '' ? null : basic.secret, method: 'client_secret_basic' };
  }
  if (bodyId === undefined) {
    throw new OAuthError(
      'invalid_client',
      'client_id is missing: a public client sends client_id; a confidential client authenticates with client_secret_basic or client_secret_post',
    );
  }
  return {
    clientId: bodyId,
    secret: bodySecret ?? null,
    method: bodySecret !== undefined ? 'client_secret_post' : 'none',
  };
}
