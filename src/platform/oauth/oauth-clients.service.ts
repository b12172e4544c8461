import { Injectable } from '@nestjs/common';
import { ID_PREFIX, parsePublicId, toPublicId } from '../../common/ids/id';
import { Database } from '../../database/database.service';
import type { OAuthClientType } from './oauth-client.entity';

/** What the authorize endpoint needs to know about a client and its church. */
export interface AuthorizeClient {
  tenant: { id: string; slug: string; name: string; status: 'active' | 'suspended' };
  client: { id: string; publicId: string; name: string; type: OAuthClientType; redirectUris: string[]; scopes: string[] };
}

interface ClientRow {
  id: string;
  name: string;
  type: OAuthClientType;
  redirect_uris: string[];
  scopes: string[];
  tenant_id: string;
  slug: string;
  tenant_name: string;
  status: 'active' | 'suspended';
}

/** The client, found by its id alone (no tenant known yet), with its church; deleted clients are not found. */
const FIND_FOR_AUTHORIZE = `
  SELECT c.id, c.name, c.type, c.redirect_uris, c.scopes, n.id AS tenant_id, n.slug, n.name AS tenant_name, n.status
    FROM oauth_clients c
    JOIN tenants n ON n.id = c.tenant_id
   WHERE c.id = $1 AND c.deleted_at IS NULL`;

/** OAuth clients (`app_…`). */
@Injectable()
export class OAuthClientsService {
  constructor(private readonly db: Database) {}

  /**
   * The client named by `client_id` and its church, OUTSIDE any tenant context (the client names
   * the church). Null for a malformed, unknown or deleted id.
   */
  async findForAuthorize(clientId: string): Promise<AuthorizeClient | null> {
    const uuid = parsePublicId(ID_PREFIX.oauthClient, clientId);
    if (!uuid) return null;
    const rows: ClientRow[] = await this.db.platform.query(FIND_FOR_AUTHORIZE, [uuid]);
    const row = rows[0];
    if (!row) return null;
    return {
      tenant: { id: row.tenant_id, slug: row.slug, name: row.tenant_name, status: row.status },
      client: { id: row.id, publicId: toPublicId(ID_PREFIX.oauthClient, row.id), name: row.name, type: row.type, redirectUris: row.redirect_uris, scopes: row.scopes },
    };
  }
}
