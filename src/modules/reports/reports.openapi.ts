import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { CURRENCY_CODES } from '../../common/money/currencies';
import {
  AttendanceReportResponse,
  DonorsReportResponse,
  GivingReportResponse,
  GroupsReportResponse,
  GrowthReportResponse,
} from './dto/report.response';
import { ATTENDANCE_GROUPS, GIVING_GROUPS } from './report-params';

/*
 * The OpenAPI decorators of ReportsController's routes, one composite per route. applyDecorators
 * applies its decorators in the order given, and the document lists parameters in the order they
 * were applied: each composite lists its query parameters in the document's order.
 */

const CSV = 'text/csv';
const SVG = 'image/svg+xml';

const DATES =
  '`from` and `to` are dates (YYYY-MM-DD), both included, in the church’s time zone (`params.timezone`: the `/v1/settings/statements` time zone, ' +
  'else the first campus’s, else UTC); by default the last 12 calendar months up to today. `from` after `to`, an unknown `group_by` or any unknown ' +
  'parameter is a 400 `invalid_parameter`. Months are `2026-09`, weeks ISO weeks `2026-W37` (Monday to Sunday). Rows hold groups that have data only. ';
const FORMATS =
  'JSON by default; `Accept: text/csv` answers the same rows as CSV (a header row, nested objects flattened as `fund_id,fund_name`, null as an ' +
  'empty cell); `Accept: image/svg+xml` a chart of the rows (bars, lines for growth; title, axis names, legend and categories in the request’s ' +
  'language; giving in major units of each currency). An `Accept` naming none of the three is 406 `not_acceptable`. ' +
  'A few reports are computed at once per server (REPORTS_CONCURRENCY); the others wait their turn, holding nothing, for up to a minute, then ' +
  'answer 503 `service_unavailable` with Retry-After. ';

const problem = { content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };

/** The 200 of a report in both media types, with an example of each. */
function ReportOk(type: new () => unknown, json: object, csv: string) {
  return ApiOkResponse({
    description: 'The report (JSON), its rows as CSV, or a chart of them (SVG).',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(type) }, example: json },
      [CSV]: { schema: { type: 'string' }, example: csv },
      [SVG]: { schema: { type: 'string' }, example: SVG_EXAMPLE },
    },
  });
}

const SVG_EXAMPLE = '<svg width="800" height="420" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 420">…</svg>';

const NotAcceptable = () =>
  ApiResponse({
    status: 406,
    description: `not_acceptable: \`Accept\` names none of application/json, ${CSV} and ${SVG}.`,
    ...problem,
  });

const FromQuery = () =>
  ApiQuery({
    name: 'from',
    required: false,
    description: 'First day included (YYYY-MM-DD).',
    schema: { type: 'string', format: 'date', example: '2025-10-01' },
  });
const ToQuery = () =>
  ApiQuery({
    name: 'to',
    required: false,
    description: 'Last day included (YYYY-MM-DD); today by default.',
    schema: { type: 'string', format: 'date', example: '2026-09-30' },
  });

const GENERATED = '2026-09-30T15:04:05.000Z';
const PARAMS = { from: '2025-10-01', to: '2026-09-30', timezone: 'America/Mexico_City', timezone_source: 'settings' };

/** `GET /v1/reports/giving`. */
export const GivingReportDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Giving report',
      description:
        'Gifts by fund, campus, month or ISO week, one row per group and currency (amounts are never mixed across currencies), `totals` one object per ' +
        'currency. Gifts count by their `received_at`; the gifts counted are those that succeeded, including partially or fully refunded ones ' +
        '(`refunded` is what was refunded of those gifts, whenever it was refunded; `net` = `amount` − `refunded`): the same gifts and the same net as ' +
        'statements and pledges. Pending gifts (an open batch), failed gifts and disputed gifts (they count for nothing until resolved, as in the ' +
        'donations module) are left out. `currency` limits the report to one currency. ' +
        'The report reads daily totals per fund, campus and currency kept in the same transaction as every gift, refund, batch commit and ' +
        'processor event, so it answers in milliseconds whatever the church’s size; the first giving report after the church’s time zone changes ' +
        'recomputes those days in the new zone (about a second per million gifts). As a chart, each currency has a panel of its own. ' +
        DATES +
        FORMATS,
    }),
    ApiQuery({
      name: 'currency',
      required: false,
      description: 'Only gifts in this currency.',
      schema: { type: 'string', enum: CURRENCY_CODES, example: 'USD' },
    }),
    ApiQuery({
      name: 'group_by',
      required: false,
      description: 'fund, campus, month (default) or week.',
      schema: { type: 'string', enum: [...GIVING_GROUPS], example: 'month' },
    }),
    ToQuery(),
    FromQuery(),
    ReportOk(
      GivingReportResponse,
      {
        report: 'giving',
        params: { ...PARAMS, group_by: 'fund', currency: null },
        generated_at: GENERATED,
        rows: [
          {
            fund: { id: 'fnd_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', name: 'General' },
            currency: 'MXN',
            count: 40,
            amount: 1250000,
            refunded: 20000,
            net: 1230000,
          },
          {
            fund: { id: 'fnd_0192f0c1a2b37c4d8e9f0a1b2c3d4e60', name: 'Missions' },
            currency: 'USD',
            count: 3,
            amount: 30000,
            refunded: 0,
            net: 30000,
          },
        ],
        totals: [
          { currency: 'MXN', count: 40, amount: 1250000, refunded: 20000, net: 1230000 },
          { currency: 'USD', count: 3, amount: 30000, refunded: 0, net: 30000 },
        ],
      },
      'fund_id,fund_name,currency,count,amount,refunded,net\r\nfnd_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f,General,MXN,40,1250000,20000,1230000\r\n',
    ),
    NotAcceptable(),
  );

/** `GET /v1/reports/giving/donors`. */
export const DonorsReportDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Donors report: first-time, recurring and lapsed donors',
      description:
        'One row per named donor (anonymous gifts have none): `first_time` when their first gift ever falls in the period, `recurring` when they gave ' +
        'in the period and had given before it, `lapsed` when they gave in the previous period (`params.previous_from`..`previous_to`: as many days, ' +
        'just before `from`) and not in this one. Gifts counted as in the giving report. `totals` counts donors per category. ' +
        DATES +
        FORMATS,
    }),
    ToQuery(),
    FromQuery(),
    ReportOk(
      DonorsReportResponse,
      {
        report: 'giving_donors',
        params: { ...PARAMS, previous_from: '2024-10-01', previous_to: '2025-09-30' },
        generated_at: GENERATED,
        rows: [
          {
            donor: { id: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', first_name: 'Lucía', last_name: 'Pérez' },
            category: 'first_time',
            gifts: 3,
            first_gift_at: '2026-02-01T16:00:00.000Z',
            last_gift_at: '2026-09-06T16:00:00.000Z',
          },
        ],
        totals: { first_time: 1, recurring: 0, lapsed: 0 },
      },
      'donor_id,donor_first_name,donor_last_name,category,gifts,first_gift_at,last_gift_at\r\nmem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f,Lucía,Pérez,first_time,3,2026-02-01T16:00:00.000Z,2026-09-06T16:00:00.000Z\r\n',
    ),
    NotAcceptable(),
  );

/** `GET /v1/reports/attendance`. */
export const AttendanceReportDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Attendance report',
      description:
        'Check-in records and unique people by event, campus (the event’s) or ISO week, counted by `checked_in_at`; `totals` over the whole range ' +
        '(a person is one unique person however many weeks they came). ' +
        DATES +
        FORMATS,
    }),
    ApiQuery({
      name: 'group_by',
      required: false,
      description: 'event, campus or week (default).',
      schema: { type: 'string', enum: [...ATTENDANCE_GROUPS], example: 'week' },
    }),
    ToQuery(),
    FromQuery(),
    ReportOk(
      AttendanceReportResponse,
      {
        report: 'attendance',
        params: { ...PARAMS, group_by: 'week' },
        generated_at: GENERATED,
        rows: [
          { period: '2026-W36', records: 180, unique_people: 150 },
          { period: '2026-W37', records: 175, unique_people: 149 },
        ],
        totals: { records: 355, unique_people: 190 },
      },
      'period,records,unique_people\r\n2026-W36,180,150\r\n2026-W37,175,149\r\n',
    ),
    NotAcceptable(),
  );

/** `GET /v1/reports/growth`. */
export const GrowthReportDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Growth report',
      description:
        'Per month: `new_members` (members created, converted prospects included, whether deleted since or not), `new_prospects` (prospects ' +
        'created, deleted ones left out), `conversions` (prospects converted) and `net_active` (new members less members deleted that month). ' +
        DATES +
        FORMATS,
    }),
    ApiQuery({
      name: 'group_by',
      required: false,
      description: 'month (the only grouping).',
      schema: { type: 'string', enum: ['month'], example: 'month' },
    }),
    ToQuery(),
    FromQuery(),
    ReportOk(
      GrowthReportResponse,
      {
        report: 'growth',
        params: { ...PARAMS, group_by: 'month' },
        generated_at: GENERATED,
        rows: [{ period: '2026-09', new_members: 14, new_prospects: 20, conversions: 6, net_active: 11 }],
        totals: { new_members: 14, new_prospects: 20, conversions: 6, net_active: 11 },
      },
      'period,new_members,new_prospects,conversions,net_active\r\n2026-09,14,20,6,11\r\n',
    ),
    NotAcceptable(),
  );

/** `GET /v1/reports/groups`. */
export const GroupsReportDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Groups report',
      description:
        'Per group (deleted ones left out, closed ones included with their `status`): members, leaders and the attendance rate over its last 8 ' +
        'meetings. Groups have no meetings of their own in the data: a meeting is an event (past, not canceled) at which at least one current member ' +
        'of the group checked in; `attended` counts the check-ins of current members at those meetings and `attendance_rate` = `attended` / ' +
        '(`members` × `meetings`). Takes no parameters. ' +
        FORMATS,
    }),
    ReportOk(
      GroupsReportResponse,
      {
        report: 'groups',
        params: { last_meetings: 8 },
        generated_at: GENERATED,
        rows: [
          {
            group: { id: 'grp_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', name: 'Young adults' },
            status: 'open',
            members: 12,
            leaders: 2,
            meetings: 8,
            attended: 71,
            attendance_rate: 0.7396,
          },
        ],
        totals: { groups: 1, members: 12, leaders: 2 },
      },
      'group_id,group_name,status,members,leaders,meetings,attended,attendance_rate\r\ngrp_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f,Young adults,open,12,2,8,71,0.7396\r\n',
    ),
    NotAcceptable(),
  );
