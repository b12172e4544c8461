import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../platform/auth/auth.decorator';
import type { AuthRequest } from '../../platform/auth/principal';
import { effectiveQuota } from '../../platform/rate-limit/quotas';
import { UsageMeter } from '../../platform/rate-limit/usage-meter';

const windowSchema = {
  type: 'object',
  properties: {
    requests: { type: 'integer', example: 1200 },
    response_bytes: { type: 'integer', example: 5_400_000 },
    window_start: { type: 'string', format: 'date-time' },
    window_end: { type: 'string', format: 'date-time' },
  },
};

@ApiTags('Usage')
@Controller('v1/usage')
export class UsageController {
  constructor(private readonly usage: UsageMeter) {}

  @Get()
  @Auth({ scopes: [] })
  @ApiOperation({
    summary: "The church's API usage",
    description:
      'Requests and response bytes today (UTC) and this minute, with the plan quota in force. A 304 counts as a request with no bytes. Rate limiting: each church has a token bucket holding `burst` requests, refilled at the plan rate per minute, and a daily window; some endpoints also have a stricter quota per token (see RateLimit-Policy).',
  })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: {
        plan: { type: 'string', example: 'starter' },
        quota: {
          type: 'object',
          properties: {
            requests_per_minute: { type: 'integer' },
            requests_per_day: { type: 'integer' },
            burst: { type: 'integer' },
          },
        },
        day: windowSchema,
        minute: windowSchema,
      },
    },
  })
  async get(@Req() req: AuthRequest) {
    const principal = req.principal!;
    const quota = effectiveQuota(principal.tenantPlan, principal.quotaOverride);
    const { day, minute } = await this.usage.read(principal.tenantId);
    return {
      plan: principal.tenantPlan,
      quota: { requests_per_minute: quota.rpm, requests_per_day: quota.perDay, burst: quota.burst },
      day,
      minute,
    };
  }
}
