import { Injectable } from '@nestjs/common';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { tenantScope } from '../../database/tenant-scope';
import { ApiTokenEntity } from '../../platform/auth/api-token.entity';
import { TOKEN_LIST } from './api-tokens.list';

@Injectable()
export class ApiTokensRepository {
  /** Tokens of the church; with `userId`, only the tokens that user owns (their PATs). */
  list(query: ListQuery, userId: string | null): Promise<Page<ApiTokenEntity>> {
    const { repo, tenantId } = tenantScope(ApiTokenEntity);
    const qb = repo.createQueryBuilder('t').where('t.tenant_id = :tenantId', { tenantId });
    if (userId) qb.andWhere('t.user_id = :userId', { userId });
    return fetchPage(qb, query, TOKEN_LIST);
  }
}
