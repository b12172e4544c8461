import { Module } from '@nestjs/common';
import { OAuthClientsService } from './oauth-clients.service';
import { OAuthCodesService } from './oauth-codes.service';

/**
 * The OAuth 2.0 provider (CONTRACT §5, §14): clients, the token, revocation and metadata endpoints,
 * the staff member's authorized apps, and (helper B) the authorize endpoint with its pages.
 * Platform layer: it imports common, database and platform/*, never modules/.
 */
@Module({
  controllers: [],
  providers: [OAuthClientsService, OAuthCodesService],
  exports: [OAuthClientsService, OAuthCodesService],
})
export class OAuthModule {}
