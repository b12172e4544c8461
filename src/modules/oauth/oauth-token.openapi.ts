import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { OAuthErrorResponse, OAuthTokenResponse } from './dto/oauth-token.response';

/* The OpenAPI decorators of OAuthTokenController's routes, one composite per route. */

const FORM = 'application/x-www-form-urlencoded';

const oauthError = (status: number, description: string) =>
  ApiResponse({
    status,
    description,
    content: { 'application/json': { schema: { $ref: getSchemaPath(OAuthErrorResponse) } } },
  });

const clientAuthentication = (what: string) =>
  applyDecorators(
    ApiExtraModels(OAuthErrorResponse),
    ApiConsumes(FORM),
    oauthError(
      400,
      `RFC 6749 §5.2 error (application/json, not problem+json): invalid_request, invalid_client (client_secret_post or a public client: unknown client_id, wrong or missing secret, a secret sent by a public client), ${what}; \`error_description\` names the check that failed.`,
    ),
    oauthError(
      401,
      '`invalid_client` for a client that authenticated with `Authorization: Basic` (unknown client_id or wrong secret), with `WWW-Authenticate: Basic`.',
    ),
  );

const CLIENT_FIELDS = {
  client_id: {
    type: 'string',
    example: 'app_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description: 'Public clients; or confidential ones with client_secret_post.',
  },
  client_secret: {
    type: 'string',
    description: 'Confidential clients with client_secret_post (or send both in `Authorization: Basic`).',
  },
};

/** `POST /v1/oauth/token`. */
export const TokenDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Token endpoint (OAuth 2.0)',
      description:
        'Form-encoded, no X-Tenant (the client names the church). `authorization_code` with `code_verifier` (PKCE S256 only; a code is valid 10 minutes, once: a replayed code revokes the tokens it issued), or `refresh_token` (rotates: each answer carries the next refresh token; a rotated one presented again within 10 seconds, e.g. by a second tab, gets a fresh pair of the same authorization; later, it revokes the whole authorization). Confidential clients authenticate with client_secret_basic or client_secret_post; public clients send client_id and no secret. Answers carry `Cache-Control: no-store`. A browser app may call it from an origin on the CORS allowlist of the client’s church.',
    }),
    ApiBody({
      required: true,
      schema: {
        type: 'object',
        required: ['grant_type'],
        properties: {
          grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
          code: { type: 'string', description: 'authorization_code: the code of the redirect.' },
          redirect_uri: {
            type: 'string',
            description: 'authorization_code: exactly the redirect_uri of the authorization request.',
          },
          code_verifier: {
            type: 'string',
            description:
              'authorization_code: the PKCE verifier (43-128 characters) whose S256 hash was the code_challenge.',
          },
          refresh_token: { type: 'string', description: 'refresh_token: the chr_… token.' },
          scope: {
            type: 'string',
            description: 'refresh_token: optionally fewer scopes than granted, space-separated.',
          },
          ...CLIENT_FIELDS,
        },
      },
    }),
    ApiOkResponse({ type: OAuthTokenResponse, description: 'RFC 6749 §5.1.' }),
    clientAuthentication(
      'invalid_grant (code or refresh token unknown, used, expired, revoked, of another client; redirect_uri or code_verifier mismatch), unsupported_grant_type, invalid_scope',
    ),
  );

/** `POST /v1/oauth/revoke`. */
export const RevokeDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Revoke a token (RFC 7009)',
      description:
        'Form-encoded, with the same client authentication as the token endpoint. An access token (cho_) is revoked alone; a refresh token (chr_) revokes its whole authorization (every access and refresh token issued from it). An unknown or already revoked token is a success (200, empty body); a token of another client is refused.',
    }),
    ApiBody({
      required: true,
      schema: {
        type: 'object',
        required: ['token'],
        properties: {
          token: { type: 'string', description: 'The cho_ or chr_ token.' },
          token_type_hint: {
            type: 'string',
            enum: ['access_token', 'refresh_token'],
            description: 'Optional; the prefix already tells.',
          },
          ...CLIENT_FIELDS,
        },
      },
    }),
    ApiResponse({ status: 200, description: 'Revoked, or nothing to revoke. Empty body.' }),
    clientAuthentication('invalid_request (token missing, or issued to another client)'),
  );
