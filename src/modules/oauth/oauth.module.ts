import { Module } from '@nestjs/common';
import { AuthorizeFlow } from './authorization-request.flow';
import { AuthorizationRequestsService } from './authorization-requests.service';
import { OAuthAuthorizationsController } from './oauth-authorizations.controller';
import { OAuthAuthorizeController } from './oauth-authorize.controller';
import { OAuthClientsController } from './oauth-clients.controller';
import { OAuthClientsService } from './oauth-clients.service';
import { OAuthCodesService } from './oauth-codes.service';
import { OAuthGrantsRepository } from './oauth-grants.repository';
import { OAuthGrantsService } from './oauth-grants.service';
import { OAuthMetadataController } from './oauth-metadata.controller';
import { OAuthPages } from './oauth-pages.renderer';
import { OAuthTokenController } from './oauth-token.controller';
import { OAuthTokensService } from './oauth-tokens.service';
import { OAuthRepository } from './oauth.repository';
import { SignInCredentials } from './sign-in-credentials';
import { SignInThrottle } from './sign-in-throttle';

/**
 * The OAuth 2.0 provider (CONTRACT §5, §14): clients, the token, revocation and metadata endpoints,
 * the staff member's authorized apps, and the authorize endpoint with its pages.
 * Platform layer: it imports common, database and platform/*, never modules/.
 */
@Module({
  controllers: [
    OAuthClientsController,
    OAuthTokenController,
    OAuthMetadataController,
    OAuthAuthorizationsController,
    OAuthAuthorizeController,
  ],
  providers: [
    // The module's SQL: clients and the authorize pages' data; what the provider issues (codes, grants, tokens)
    OAuthRepository,
    OAuthGrantsRepository,
    OAuthClientsService,
    OAuthCodesService,
    OAuthGrantsService,
    OAuthTokensService,
    // The authorize endpoint and its pages
    AuthorizeFlow,
    AuthorizationRequestsService,
    SignInCredentials,
    SignInThrottle,
    OAuthPages,
  ],
  exports: [OAuthClientsService, OAuthCodesService, OAuthGrantsService, SignInCredentials, SignInThrottle],
})
export class OAuthModule {}
