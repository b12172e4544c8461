import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { loadEncryptionKey } from './encryption-key';
import { SecretBox } from './secret-box';

export const SECRET_BOX = Symbol('SECRET_BOX');

/** The SecretBox for secrets the service must read back (webhook signing secrets, replayable responses). */
@Global()
@Module({
  providers: [
    {
      provide: SECRET_BOX,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new SecretBox(loadEncryptionKey(config)),
    },
  ],
  exports: [SECRET_BOX],
})
export class CryptoModule {}
