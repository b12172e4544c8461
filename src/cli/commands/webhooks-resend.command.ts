import { Command, CommandRunner, Option } from 'nest-commander';
import { requirePublicId } from '../../common/ids/id';
import { WebhookEventsService } from '../../modules/webhook-endpoints/webhook-events.service';
import { CliSupport, requireOption } from '../cli-support';

@Command({
  name: 'webhooks:resend',
  description: 'Deliver an event again to one endpoint (as POST /v1/webhook-events/{id}/resend)',
})
export class WebhooksResendCommand extends CommandRunner {
  constructor(
    private readonly cli: CliSupport,
    private readonly events: WebhookEventsService,
  ) {
    super();
  }

  async run(
    _args: string[],
    options: { tenant?: string; event?: string; endpoint?: string; json?: boolean },
  ): Promise<void> {
    const [slug, event, endpoint] = [
      requireOption(options.tenant, 'tenant'),
      requireOption(options.event, 'event'),
      requireOption(options.endpoint, 'endpoint'),
    ];
    const eventId = requirePublicId('evt', event, 'event');
    const result = await this.cli.inTenant(slug, () => this.events.resend(eventId, endpoint));
    this.cli.out(result, Boolean(options.json), result.delivery_id);
  }

  @Option({ flags: '--tenant <slug>' }) tenant(v: string) {
    return v;
  }
  @Option({ flags: '--event <evt_id>' }) event(v: string) {
    return v;
  }
  @Option({ flags: '--endpoint <whe_id>' }) endpoint(v: string) {
    return v;
  }
  @Option({ flags: '--json' }) json() {
    return true;
  }
}
