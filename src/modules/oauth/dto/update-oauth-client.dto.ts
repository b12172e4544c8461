import { OmitType, PartialType } from '@nestjs/swagger';
import { CreateOAuthClientDto } from './create-oauth-client.dto';

/** Name, redirect URIs and scope ceiling; the type is fixed once the client exists. */
export class UpdateOAuthClientDto extends PartialType(OmitType(CreateOAuthClientDto, ['type'] as const)) {}
