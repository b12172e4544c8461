import { Changes } from './changes.js';
import {
  AttendanceRecords,
  AuditLog,
  Batches,
  Campuses,
  CheckIns,
  CustomFields,
  Devices,
  Donations,
  Events,
  Funds,
  Groups,
  Households,
  Members,
  Notifications,
  OAuth,
  Pledges,
  PrayerRequests,
  Prospects,
  PushTokens,
  RecurringGifts,
  Reports,
  Settings,
  Statements,
  Tags,
  Tokens,
  Usage,
  WebhookEndpoints,
  WebhookEvents,
} from './resources.js';
import { Transport, type CallOptions, type ChurchClientOptions, type SendInit } from './transport.js';
import type { HttpMethod, PathsWith, ResponseBody } from './types.js';

/**
 * The Church Management API, one church at a time.
 *
 *   const client = new ChurchClient({ token, tenant: 'grace', baseUrl: 'https://api.example.org', language: 'en' });
 *   const maria = await client.members.create({ first_name: 'María', last_name: 'González', campus: 'north' });
 *   for await (const member of client.members.list({ campus: 'north' })) console.log(member.last_name);
 *
 * Creating POSTs carry an Idempotency-Key; network errors, 429, 503 and 409 `idempotency_in_progress` are
 * retried with backoff (see `retries`); any other error is thrown as a ChurchApiError.
 */
export class ChurchClient {
  readonly members: Members;
  readonly pushTokens: PushTokens;
  readonly households: Households;
  readonly prospects: Prospects;
  readonly tags: Tags;
  readonly customFields: CustomFields;
  readonly campuses: Campuses;
  readonly funds: Funds;
  readonly donations: Donations;
  readonly batches: Batches;
  readonly recurringGifts: RecurringGifts;
  readonly pledges: Pledges;
  readonly statements: Statements;
  readonly events: Events;
  readonly attendance: AttendanceRecords;
  readonly groups: Groups;
  readonly checkIns: CheckIns;
  readonly prayerRequests: PrayerRequests;
  readonly notifications: Notifications;
  readonly reports: Reports;
  readonly devices: Devices;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly webhookEvents: WebhookEvents;
  readonly tokens: Tokens;
  readonly oauth: OAuth;
  readonly settings: Settings;
  readonly auditLog: AuditLog;
  readonly usage: Usage;
  readonly changes: Changes;

  private readonly transport: Transport;

  constructor(options: ChurchClientOptions) {
    const t = (this.transport = new Transport(options));
    this.members = new Members(t);
    this.pushTokens = new PushTokens(t);
    this.households = new Households(t);
    this.prospects = new Prospects(t);
    this.tags = new Tags(t);
    this.customFields = new CustomFields(t);
    this.campuses = new Campuses(t);
    this.funds = new Funds(t);
    this.donations = new Donations(t);
    this.batches = new Batches(t);
    this.recurringGifts = new RecurringGifts(t);
    this.pledges = new Pledges(t);
    this.statements = new Statements(t);
    this.events = new Events(t);
    this.attendance = new AttendanceRecords(t);
    this.groups = new Groups(t);
    this.checkIns = new CheckIns(t);
    this.prayerRequests = new PrayerRequests(t);
    this.notifications = new Notifications(t);
    this.reports = new Reports(t);
    this.devices = new Devices(t);
    this.webhookEndpoints = new WebhookEndpoints(t);
    this.webhookEvents = new WebhookEvents(t);
    this.tokens = new Tokens(t);
    this.oauth = new OAuth(t);
    this.settings = new Settings(t);
    this.auditLog = new AuditLog(t);
    this.usage = new Usage(t);
    this.changes = new Changes(t);
  }

  /**
   * Any operation of the document by method and path template, with the same headers, retries and
   * errors as the resource methods: `client.request('get', '/v1/members/{id}', { path: { id } })`.
   */
  request<M extends HttpMethod, P extends PathsWith<M>>(
    method: M,
    path: P,
    init?: SendInit,
    options?: CallOptions,
  ): Promise<ResponseBody<P, M>> {
    return this.transport.send(method, path, init, options);
  }
}
