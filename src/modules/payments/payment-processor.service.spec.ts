import 'reflect-metadata';
import { AppError } from '../../common/errors/app-error';
import { validateEnvironment } from '../../config/app-config';
import type { SecretBox } from '../../common/crypto/secret-box';
import type { Database } from '../../database/database.service';
import { PaymentProcessorService } from './payment-processor.service';
import type { PaymentsRepository } from './payments.repository';
import type { StripeGateway } from './stripe-gateway';

describe('PaymentProcessorService.connect without PUBLIC_URL', () => {
  it('is 422 public_url_required in production, before the processor or the database is touched', async () => {
    const untouched = new Proxy({}, { get: () => () => Promise.reject(new Error('must not be called')) });
    const config = validateEnvironment({ NODE_ENV: 'production' });
    expect(config.PUBLIC_URL).toBeUndefined();
    const service = new PaymentProcessorService(
      untouched as PaymentsRepository,
      untouched as StripeGateway,
      untouched as SecretBox,
      config,
      untouched as Database,
    );
    const failure: unknown = await service
      .connect({ provider: 'stripe', api_key: 'sk_live_0123456789abcdef' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 'public_url_required', status: 422 });
  });
});
