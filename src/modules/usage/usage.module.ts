import { Module } from '@nestjs/common';
import { UsageController } from './usage.controller';

/** The church's API usage (`/v1/usage`), read from the rate limiter's meter. */
@Module({ controllers: [UsageController] })
export class UsageModule {}
