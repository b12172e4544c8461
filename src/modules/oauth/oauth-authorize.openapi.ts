import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { SCOPES } from '../../platform/auth/scopes';
import { MAX_STATE_LENGTH } from './authorization-request.params';

/*
 * The OpenAPI decorators of OAuthAuthorizeController's routes, one composite per route. applyDecorators
 * applies its decorators in the order given, and the document lists parameters in the order they
 * were applied: each composite lists its query parameters in the document's order.
 */

const FORM = 'application/x-www-form-urlencoded';
const html = (
  status: number,
  description: string,
  headers?: Record<string, { description: string; schema: { type: string } }>,
) => ApiResponse({ status, description, headers, content: { 'text/html': { schema: { type: 'string' } } } });
const problem = { content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };
const unavailable = () =>
  ApiResponse({ status: 503, description: 'service_unavailable: the database is unreachable.', ...problem });

const PAGE_HEADERS =
  "Pages and redirects carry `Content-Security-Policy` (no script; the style sheet by hash; `form-action` this server and the client’s redirect origin; `frame-ancestors 'none'`), " +
  '`X-Frame-Options: DENY`, `Referrer-Policy: no-referrer` and `Cache-Control: no-store`. Pages are in the request’s language (es default; en, pt by `Accept-Language`).';

/** The answers every form of the pages shares: its own checks, before the step's. */
const formErrors = () =>
  applyDecorators(
    ApiConsumes(FORM),
    ApiProduces('text/html'),
    html(
      400,
      'Error page: the request is unknown, expired (10 minutes), already used or not signed in; the form is unreadable; on the sign-in form also a missing or wrong e-mail or password (the sign-in page again, with a generic “wrong e-mail or password”).',
    ),
    html(
      403,
      'Error page: the CSRF token is missing or wrong, or the browser is not the one that started the request (its cookie), or the church is suspended.',
    ),
    html(413, 'Error page: the form is larger than 64 KB.'),
    html(415, `Error page: the body is not ${FORM}.`),
    unavailable(),
  );

const keyFields = {
  request: { type: 'string', description: 'The pending request’s handle, from the page’s hidden field.' },
  csrf: { type: 'string', description: 'The CSRF token, from the page’s hidden field.' },
};

/** `GET /v1/oauth/authorize`. */
export const AuthorizeDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Authorization endpoint (OAuth 2.0, PKCE): the sign-in page',
      description:
        'Opened in the staff member’s browser; no X-Tenant (the client names the church). The client and the redirect_uri are checked first: an unknown client_id, or a redirect_uri that is not ' +
        'exactly one the client registered, is an error page (400) and never a redirect. Then errors go back to the redirect_uri (302) with `error`, `error_description` (naming the check), ' +
        '`state` and `iss`: `invalid_request` (response_type missing; code_challenge_method missing, `plain` or not S256; code_challenge missing or not 43 base64url characters; a parameter sent twice), ' +
        '`unsupported_response_type`, `invalid_scope` (unknown, or not on the client’s list). A good request is kept on the server for 10 minutes and the sign-in page carries only its handle ' +
        '(and a CSRF token); the browser gets an HttpOnly cookie it must send back with the forms. ' +
        PAGE_HEADERS,
    }),
    ApiQuery({ name: 'code_challenge_method', required: true, schema: { type: 'string', enum: ['S256'] } }),
    ApiQuery({
      name: 'code_challenge',
      required: true,
      description: 'base64url(SHA-256(code_verifier)), 43 characters.',
      schema: { type: 'string' },
    }),
    ApiQuery({
      name: 'state',
      required: false,
      description: `Echoed in the redirect (at most ${MAX_STATE_LENGTH} characters).`,
      schema: { type: 'string' },
    }),
    ApiQuery({
      name: 'scope',
      required: false,
      description: `Space-separated (\`+\` in the query). Each must be on the client’s list; the staff member’s role then caps them. Omitted: the client’s whole list. Scopes: ${SCOPES.join(', ')}.`,
      schema: { type: 'string', example: 'read:members read:events' },
    }),
    ApiQuery({
      name: 'redirect_uri',
      required: true,
      description: 'Exactly one of the client’s registered redirect URIs.',
      schema: { type: 'string', example: 'https://app.example.org/callback' },
    }),
    ApiQuery({
      name: 'client_id',
      required: true,
      schema: { type: 'string', example: 'app_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' },
    }),
    ApiQuery({ name: 'response_type', required: true, schema: { type: 'string', enum: ['code'] } }),
    ApiProduces('text/html'),
    html(200, 'The sign-in page (e-mail and password of a staff member of the client’s church).', {
      'Set-Cookie': {
        description:
          '`__Host-oauth_browser`: binds the request to this browser (Secure, HttpOnly, SameSite=Lax, Path=/). One pending request per browser: a new one replaces the last.',
        schema: { type: 'string' },
      },
    }),
    ApiResponse({
      status: 302,
      description:
        'An error sent back to the client: `Location` is the redirect_uri with `error`, `error_description`, `state` and `iss`.',
      headers: {
        Location: { description: 'The client’s redirect_uri with the error parameters.', schema: { type: 'string' } },
      },
    }),
    html(400, 'Error page, no redirect: unknown client_id, or a redirect_uri the client has not registered.'),
    html(403, 'Error page: the client’s church is suspended.'),
    unavailable(),
  );

/** `POST /v1/oauth/authorize/sign-in`. */
export const SignInDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Sign-in form of the authorization page',
      description:
        'Posted by the sign-in page. Checks the e-mail and password of a staff member of the client’s church; a wrong pair shows the page again with a generic message. Failed attempts are limited ' +
        'per account (5) and per client address (20) in 15 minutes: past that the page answers 429 with `Retry-After` without checking the password. A success shows the consent page: ' +
        'the church’s and the app’s names and the scopes that will be granted (requested ∩ the client’s ∩ the role’s), each in plain words, with Allow and Deny. ' +
        PAGE_HEADERS,
    }),
    ApiBody({
      required: true,
      schema: {
        type: 'object',
        required: ['request', 'csrf', 'email', 'password'],
        properties: {
          ...keyFields,
          email: { type: 'string', format: 'email' },
          password: { type: 'string', format: 'password' },
        },
      },
    }),
    html(200, 'The consent page.'),
    formErrors(),
    html(429, 'The sign-in page again: too many failed attempts for this account or address.', {
      'Retry-After': { description: 'Seconds until a sign-in may be tried again.', schema: { type: 'integer' } },
    }),
  );

/** `POST /v1/oauth/authorize/decision`. */
export const DecisionDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Consent form of the authorization page: Allow or Deny',
      description:
        'Posted by the consent page; ends the request (once). Allow: 303 to the redirect_uri with `code` (valid 10 minutes, once, for the token endpoint with the PKCE verifier), `state` and `iss`. ' +
        'Deny: 303 with `error=access_denied`, `state` and `iss`. ' +
        PAGE_HEADERS,
    }),
    ApiBody({
      required: true,
      schema: {
        type: 'object',
        required: ['request', 'csrf', 'decision'],
        properties: { ...keyFields, decision: { type: 'string', enum: ['allow', 'deny'] } },
      },
    }),
    ApiResponse({
      status: 303,
      description:
        'Back to the client: `Location` is the redirect_uri with `code`, `state` and `iss` (Allow) or `error=access_denied` (Deny).',
      headers: {
        Location: {
          description: 'The client’s redirect_uri with the response parameters.',
          schema: { type: 'string' },
        },
      },
    }),
    formErrors(),
  );
