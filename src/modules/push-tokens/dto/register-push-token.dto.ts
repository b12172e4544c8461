import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString } from 'class-validator';
import { MaxLen, MinLen, OneOf } from '../../../common/validation/rules';

export const PUSH_PLATFORMS = ['ios', 'android', 'web'] as const;
export type PushPlatform = (typeof PUSH_PLATFORMS)[number];

/** POST /v1/members/{id}/push-tokens: a device's FCM registration token. */
export class RegisterPushTokenDto {
  @ApiProperty({
    example: 'fMEP0vJqS0:APA91bHqX2k9u8Yk4m3nQ7b1c0d2e3f4g5h6i7j8k9l0',
    minLength: 1,
    maxLength: 4096,
    description:
      'The registration token the device got from FCM. Registering a known token again updates it (and moves it to this member).',
  })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(4096)
  token: string;

  @ApiProperty({ enum: PUSH_PLATFORMS, example: 'android' })
  @IsDefined()
  @IsString()
  @OneOf(PUSH_PLATFORMS)
  platform: PushPlatform;
}
