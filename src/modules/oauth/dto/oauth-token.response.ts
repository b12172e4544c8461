import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** RFC 6749 §5.1. */
export class OAuthTokenResponse {
  @ApiProperty({
    example: 'cho_Q2x9f0aB7c1D3e5F7g9H1j3K5m7N9p1R4sT6',
    description: 'An API token (cho_…): send it as `Authorization: Bearer` with `X-Tenant`. Valid 1 hour.',
  })
  access_token: string;
  @ApiProperty({ enum: ['Bearer'] }) token_type: 'Bearer';
  @ApiProperty({ example: 3600, description: 'Seconds until the access token expires.' }) expires_in: number;
  @ApiProperty({
    example: 'chr_Lm3n5P7q9R1s3T5u7V9w1X3y5Z7a9B1c2D4e',
    description:
      'Valid 30 days; each use rotates it (the answer carries the next one). A rotated token presented again after a grace of 10 seconds revokes the whole authorization.',
  })
  refresh_token: string;
  @ApiProperty({
    example: 'read:members read:events',
    description: 'The scopes granted, space-separated: requested ∩ the client’s ∩ the user’s role.',
  })
  scope: string;
}

/** RFC 6749 §5.2 (also RFC 7009 §2.2.1): the errors of the token and revocation endpoints. */
export class OAuthErrorResponse {
  @ApiProperty({
    enum: [
      'invalid_request',
      'invalid_client',
      'invalid_grant',
      'unauthorized_client',
      'unsupported_grant_type',
      'invalid_scope',
      'unsupported_token_type',
    ],
  })
  error: string;
  @ApiPropertyOptional({
    example: 'code_verifier does not match the code_challenge (S256)',
    description: 'Which check failed, in English.',
  })
  error_description?: string;
}

/** RFC 8414 §2. */
export class OAuthServerMetadataResponse {
  @ApiProperty({ example: 'https://api.example.org' }) issuer: string;
  @ApiProperty({ example: 'https://api.example.org/v1/oauth/authorize' }) authorization_endpoint: string;
  @ApiProperty({ example: 'https://api.example.org/v1/oauth/token' }) token_endpoint: string;
  @ApiProperty({ example: 'https://api.example.org/v1/oauth/revoke' }) revocation_endpoint: string;
  @ApiProperty({ example: ['read:members', 'write:members'], type: [String] }) scopes_supported: string[];
  @ApiProperty({ example: ['code'], type: [String] }) response_types_supported: string[];
  @ApiProperty({ example: ['query'], type: [String] }) response_modes_supported: string[];
  @ApiProperty({ example: ['authorization_code', 'refresh_token'], type: [String] }) grant_types_supported: string[];
  @ApiProperty({ example: ['client_secret_basic', 'client_secret_post', 'none'], type: [String] })
  token_endpoint_auth_methods_supported: string[];
  @ApiProperty({ example: ['client_secret_basic', 'client_secret_post', 'none'], type: [String] })
  revocation_endpoint_auth_methods_supported: string[];
  @ApiProperty({ example: ['S256'], type: [String] }) code_challenge_methods_supported: string[];
  @ApiProperty({ example: true }) authorization_response_iss_parameter_supported: boolean;
  @ApiProperty({ example: 'https://api.example.org/docs' }) service_documentation: string;
}

export class OAuthAuthorizationResponse {
  @ApiProperty({
    example: 'app_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description: 'The client (the same as client_id): DELETE /v1/oauth/authorizations/{client_id} revokes it.',
  })
  id: string;
  @ApiProperty({ example: 'app_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) client_id: string;
  @ApiProperty({ example: 'Check-in App' }) client_name: string;
  @ApiProperty({
    example: ['read:members', 'read:events'],
    type: [String],
    description: 'Every scope you granted the app, over all of its live authorizations.',
  })
  scopes: string[];
  @ApiProperty({
    example: '2026-01-05T15:04:05.000Z',
    format: 'date-time',
    description: 'When you first authorized it (of the live authorizations).',
  })
  authorized_at: string;
  @ApiProperty({
    example: '2026-01-06T09:00:00.000Z',
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'When one of its access tokens was last used (to the minute).',
  })
  last_used_at: string | null;
}

export class OAuthAuthorizationListResponse {
  @ApiProperty({ type: [OAuthAuthorizationResponse] }) data: OAuthAuthorizationResponse[];
  @ApiProperty({ type: String, nullable: true, description: 'Always null: the list is one page (one entry per app).' })
  next_cursor: string | null;
  @ApiProperty({ example: 1 }) total: number;
}
