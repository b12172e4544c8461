import { Injectable } from '@nestjs/common';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId, requirePublicId, toPublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { isStorableText } from '../../common/validation/text';
import { isScope, SCOPES } from '../../platform/auth/scopes';
import { hashToken } from '../../platform/auth/token-format';
import type { CreatedOAuthClientResponse, OAuthClientResponse } from './dto/oauth-client.response';
import type { OAuthClientEntity, OAuthClientType } from './oauth-client.entity';
import { OAUTH_CLIENT_LIST } from './oauth-clients.list';
import { toOAuthClientResponse } from './oauth-clients.mapper';
import { OAuthGrantsService } from './oauth-grants.service';
import { OAuthRepository } from './oauth.repository';
import { redirectUriIssues } from './redirect-uris';

/** What the authorize endpoint needs to know about a client and its church. */
export interface AuthorizeClient {
  tenant: { id: string; slug: string; name: string; status: 'active' | 'suspended' };
  client: {
    id: string;
    publicId: string;
    name: string;
    type: OAuthClientType;
    redirectUris: string[];
    scopes: string[];
  };
}

/** What the token and revocation endpoints need: the client, its church, and the hash of its secret. */
export interface TokenClient extends AuthorizeClient {
  secretHash: Buffer | null;
}

export interface ClientInput {
  name?: string;
  redirectUris?: string[];
  type?: OAuthClientType;
  scopes?: string[];
}

/** Every scope but admin:*: the ceiling of a client registered without one. */
export const DEFAULT_CLIENT_SCOPES: readonly string[] = SCOPES.filter((s) => s !== 'admin:*');

/** OAuth clients (`app_…`): registration (API and CLI), and the look-ups of the protocol endpoints. */
@Injectable()
export class OAuthClientsService {
  constructor(
    private readonly repository: OAuthRepository,
    private readonly grants: OAuthGrantsService,
  ) {}

  /**
   * The client named by `client_id` and its church, OUTSIDE any tenant context (the client names
   * the church). Null for a malformed, unknown or deleted id.
   */
  async findForAuthorize(clientId: string): Promise<AuthorizeClient | null> {
    const found = await this.findForToken(clientId);
    if (!found) return null;
    const { secretHash: _secret, ...client } = found;
    return client;
  }

  /** As findForAuthorize, with the secret's hash (client authentication). */
  async findForToken(clientId: string): Promise<TokenClient | null> {
    const uuid = parsePublicId(ID_PREFIX.oauthClient, clientId);
    if (!uuid) return null;
    const row = await this.repository.findClientWithTenant(uuid);
    if (!row) return null;
    return {
      tenant: { id: row.tenant_id, slug: row.slug, name: row.tenant_name, status: row.status },
      client: {
        id: row.id,
        publicId: toPublicId(ID_PREFIX.oauthClient, row.id),
        name: row.name,
        type: row.type,
        redirectUris: row.redirect_uris,
        scopes: row.scopes,
      },
      secretHash: row.secret_hash,
    };
  }

  /** Whether `secret` is the client's (constant time over the hashes). */
  static secretMatches(client: TokenClient, secret: string): boolean {
    return client.secretHash !== null && timingSafeEqual(hashToken(secret), client.secretHash);
  }

  // ---------------------------------------------------------------------------------------------
  // Registration, inside the church's transaction (the API's admin routes and the CLI).
  // ---------------------------------------------------------------------------------------------

  async create(input: ClientInput, createdBy: string | null): Promise<CreatedOAuthClientResponse> {
    const type = input.type ?? 'public';
    const scopes = input.scopes === undefined ? [...DEFAULT_CLIENT_SCOPES] : [...new Set(input.scopes)];
    const issues = [
      ...this.nameIssues(input.name, true),
      ...redirectUriIssues(input.redirectUris ?? []),
      ...this.typeIssues(type),
      ...this.scopeIssues(scopes),
    ];
    if (issues.length) throw AppError.validation(issues);
    const secret = type === 'confidential' ? randomBytes(32).toString('base64url') : null;
    const now = new Date();
    const client = await this.repository.insertClient({
      id: newUuid(),
      name: input.name!.trim(),
      type,
      redirectUris: input.redirectUris!,
      scopes,
      secretHash: secret ? hashToken(secret) : null,
      secretLast4: secret ? secret.slice(-4) : null,
      createdBy,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    const response: CreatedOAuthClientResponse = toOAuthClientResponse(client);
    if (secret) response.client_secret = secret;
    return response;
  }

  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<OAuthClientResponse>> {
    const query = parseListQuery(rawQuery, OAUTH_CLIENT_LIST);
    return toEnvelope(await this.repository.listClients(query), toOAuthClientResponse);
  }

  async get(publicId: string): Promise<OAuthClientResponse> {
    return toOAuthClientResponse(await this.require(publicId));
  }

  async update(publicId: string, input: Omit<ClientInput, 'type'>): Promise<OAuthClientResponse> {
    const issues: FieldIssue[] = [];
    if (input.name !== undefined) issues.push(...this.nameIssues(input.name, true));
    if (input.redirectUris !== undefined) issues.push(...redirectUriIssues(input.redirectUris ?? []));
    const scopes = input.scopes === undefined ? undefined : [...new Set(input.scopes ?? [])];
    if (scopes !== undefined) issues.push(...this.scopeIssues(scopes));
    if (issues.length) throw AppError.validation(issues);
    const client = await this.require(publicId, true);
    const changes: Partial<OAuthClientEntity> = { updatedAt: new Date() };
    if (input.name !== undefined) changes.name = input.name.trim();
    if (input.redirectUris !== undefined) changes.redirectUris = input.redirectUris;
    if (scopes !== undefined) changes.scopes = scopes;
    await this.repository.updateClient(client.id, changes);
    return toOAuthClientResponse(Object.assign(client, changes));
  }

  /** Deletes the client (soft) and revokes every grant, code and token it holds. */
  async remove(publicId: string): Promise<void> {
    const client = await this.require(publicId, true);
    const now = new Date();
    await this.repository.updateClient(client.id, { deletedAt: now, updatedAt: now });
    await this.grants.revokeAllOfClient(client.id);
  }

  private async require(publicId: string, lock = false): Promise<OAuthClientEntity> {
    const id = requirePublicId(ID_PREFIX.oauthClient, publicId, 'OAuth client');
    const client = await this.repository.findClient(id, lock ? 'for_no_key_update' : undefined);
    if (!client || client.deletedAt) throw AppError.notFound('OAuth client');
    return client;
  }

  private nameIssues(name: string | undefined, required: boolean): FieldIssue[] {
    if (name === undefined || name === null) return required ? [{ field: 'name', issue: 'required' }] : [];
    if (typeof name !== 'string') return [{ field: 'name', issue: 'invalid_type', params: { type: 'string' } }];
    if (!name.trim()) return [{ field: 'name', issue: 'required' }];
    if (name.length > 100) return [{ field: 'name', issue: 'too_long', params: { max: 100 } }];
    if (!isStorableText(name))
      return [
        {
          field: 'name',
          issue: 'invalid_format',
          params: { format: 'Unicode text without NUL (U+0000) or unpaired surrogate characters' },
        },
      ];
    return [];
  }

  private typeIssues(type: string): FieldIssue[] {
    return type === 'public' || type === 'confidential'
      ? []
      : [{ field: 'type', issue: 'one_of', params: { values: 'public, confidential' } }];
  }

  private scopeIssues(scopes: string[]): FieldIssue[] {
    if (scopes.length === 0) return [{ field: 'scopes', issue: 'required' }];
    return scopes.flatMap((s, i) =>
      isScope(s) ? [] : [{ field: `scopes[${i}]`, issue: 'one_of', params: { values: SCOPES.join(', ') } }],
    );
  }
}
