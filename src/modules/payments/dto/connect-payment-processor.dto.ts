import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString } from 'class-validator';
import { Format, OneOf } from '../../../common/validation/rules';
import { PROVIDERS } from '../payment-webhooks.path';

/** A Stripe secret or restricted key, live or test. */
export const STRIPE_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{10,247}$/;
export const STRIPE_KEY_FORMAT = 'Stripe secret key (sk_… or rk_…)';

/** PUT /v1/settings/payment-processor */
export class ConnectPaymentProcessorDto {
  @ApiProperty({ enum: PROVIDERS, example: 'stripe' })
  @IsDefined()
  @IsString()
  @OneOf(PROVIDERS)
  provider: string;

  @ApiProperty({
    example: 'sk_test_51PqR8sLkdIwHu7ix0aBcDeFgHiJkLmNoP',
    description:
      'A secret key (`sk_live_…`/`sk_test_…`) or a restricted key (`rk_…`) allowed to write webhook endpoints. Sealed at rest, never returned; only its last four characters are shown.',
    writeOnly: true,
  })
  @IsDefined()
  @IsString()
  @Format(STRIPE_KEY, STRIPE_KEY_FORMAT)
  api_key: string;
}
