import { Command, CommandRunner, Option } from 'nest-commander';
import { requirePublicId } from '../../common/ids/id';
import { isEventType } from '../../platform/outbox/event-types';
import { WebhookEndpointsService } from '../../modules/webhook-endpoints/webhook-endpoints.service';
import { CliError, CliSupport, requireOption } from '../cli-support';

interface Options {
  tenant?: string;
  endpoint?: string;
  type?: string;
  from?: string;
  to?: string;
  json?: boolean;
}

@Command({
  name: 'webhooks:backfill',
  description: 'Deliver past events of one type to an endpoint (as POST /v1/webhook-endpoints/{id}/backfill)',
})
export class WebhooksBackfillCommand extends CommandRunner {
  constructor(
    private readonly cli: CliSupport,
    private readonly endpoints: WebhookEndpointsService,
  ) {
    super();
  }

  async run(_args: string[], options: Options): Promise<void> {
    const slug = requireOption(options.tenant, 'tenant');
    const endpointId = requirePublicId('whe', requireOption(options.endpoint, 'endpoint'), 'webhook endpoint');
    const type = requireOption(options.type, 'type');
    if (!isEventType(type)) throw new CliError(`--type is not an event type: ${type}`);
    const [from, to] = [requireOption(options.from, 'from'), requireOption(options.to, 'to')];
    if (Number.isNaN(Date.parse(from)) || Number.isNaN(Date.parse(to)))
      throw new CliError('--from and --to must be dates (ISO 8601)');
    const result = await this.cli.inTenant(slug, () => this.endpoints.backfill(endpointId, { type, from, to }));
    this.cli.out(result, Boolean(options.json), `enqueued ${result.enqueued} deliveries`);
  }

  @Option({ flags: '--tenant <slug>' }) tenant(v: string) {
    return v;
  }
  @Option({ flags: '--endpoint <whe_id>' }) endpoint(v: string) {
    return v;
  }
  @Option({ flags: '--type <event type>' }) type(v: string) {
    return v;
  }
  @Option({ flags: '--from <date>' }) from(v: string) {
    return v;
  }
  @Option({ flags: '--to <date>' }) to(v: string) {
    return v;
  }
  @Option({ flags: '--json' }) json() {
    return true;
  }
}
