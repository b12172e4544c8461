import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CURRENCY_CODES } from '../../../common/money/currencies';
import { ATTENDANCE_GROUPS, GIVING_GROUPS } from '../report-params';

const TIMEZONE_SOURCES = ['settings', 'campus', 'default'];

export class ReportRef {
  @ApiProperty({ example: 'fnd_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'General' }) name: string;
}

/** The parameters a report was computed with, defaults filled in. */
export class ReportParams {
  @ApiProperty({ example: '2025-10-01', format: 'date', description: 'First day included (in `timezone`).' })
  from: string;
  @ApiProperty({ example: '2026-09-30', format: 'date', description: 'Last day included (in `timezone`).' }) to: string;
  @ApiProperty({
    example: 'America/Mexico_City',
    description:
      'The IANA time zone of the dates, months and ISO weeks: the church’s `/v1/settings/statements` time zone, else its first campus’s, else UTC.',
  })
  timezone: string;
  @ApiProperty({
    enum: TIMEZONE_SOURCES,
    example: 'settings',
    description: 'Where `timezone` came from: `settings`, `campus` or `default` (UTC).',
  })
  timezone_source: string;
}

export class GivingReportParams extends ReportParams {
  @ApiProperty({ enum: GIVING_GROUPS, example: 'month' }) group_by: string;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: CURRENCY_CODES,
    example: null,
    description: 'The currency asked for; null: every currency.',
  })
  currency: string | null;
}

export class GivingTotal {
  @ApiProperty({ enum: CURRENCY_CODES, example: 'USD' }) currency: string;
  @ApiProperty({ example: 42, description: 'Gifts counted (succeeded, partially refunded or refunded).' })
  count: number;
  @ApiProperty({ example: 250000, description: 'Their amounts, in minor units.' }) amount: number;
  @ApiProperty({ example: 5000, description: 'What was refunded of those gifts (whenever refunded).' })
  refunded: number;
  @ApiProperty({ example: 245000, description: '`amount` − `refunded`.' }) net: number;
}

export class GivingReportRow extends GivingTotal {
  @ApiPropertyOptional({ type: ReportRef, description: 'group_by=fund.' }) fund?: ReportRef;
  @ApiPropertyOptional({
    type: ReportRef,
    nullable: true,
    description: 'group_by=campus; null for gifts without a campus.',
  })
  campus?: ReportRef | null;
  @ApiPropertyOptional({
    example: '2026-09',
    description: 'group_by=month (`2026-09`) or week (ISO week, `2026-W37`).',
  })
  period?: string;
}

export class GivingReportResponse {
  @ApiProperty({ example: 'giving' }) report: string;
  @ApiProperty({ type: GivingReportParams }) params: GivingReportParams;
  @ApiProperty({ example: '2026-09-30T15:04:05.000Z', format: 'date-time' }) generated_at: string;
  @ApiProperty({ type: [GivingReportRow], description: 'One row per group and currency, groups with gifts only.' })
  rows: GivingReportRow[];
  @ApiProperty({ type: [GivingTotal], description: 'One object per currency.' }) totals: GivingTotal[];
}

export class DonorsReportParams extends ReportParams {
  @ApiProperty({
    example: '2024-10-01',
    format: 'date',
    description: 'First day of the previous period (as many days as from..to, just before it).',
  })
  previous_from: string;
  @ApiProperty({ example: '2025-09-30', format: 'date' }) previous_to: string;
}

export class ReportDonor {
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ type: String, nullable: true, example: 'Lucía' }) first_name: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Pérez' }) last_name: string | null;
}

export class DonorReportRow {
  @ApiProperty({ type: ReportDonor }) donor: ReportDonor;
  @ApiProperty({
    enum: ['first_time', 'recurring', 'lapsed'],
    example: 'first_time',
    description:
      '`first_time`: first gift ever in the period; `recurring`: gave in the period and before it; `lapsed`: gave in the previous period and not in this one.',
  })
  category: string;
  @ApiProperty({ example: 3, description: 'Gifts in the period (0 for lapsed donors).' }) gifts: number;
  @ApiProperty({ example: '2026-02-01T16:00:00.000Z', format: 'date-time' }) first_gift_at: string;
  @ApiProperty({
    example: '2026-09-06T16:00:00.000Z',
    format: 'date-time',
    description: 'Last gift up to the end of the period.',
  })
  last_gift_at: string;
}

export class DonorTotals {
  @ApiProperty({ example: 12 }) first_time: number;
  @ApiProperty({ example: 80 }) recurring: number;
  @ApiProperty({ example: 9 }) lapsed: number;
}

export class DonorsReportResponse {
  @ApiProperty({ example: 'giving_donors' }) report: string;
  @ApiProperty({ type: DonorsReportParams }) params: DonorsReportParams;
  @ApiProperty({ example: '2026-09-30T15:04:05.000Z', format: 'date-time' }) generated_at: string;
  @ApiProperty({ type: [DonorReportRow] }) rows: DonorReportRow[];
  @ApiProperty({ type: DonorTotals, description: 'Donors per category.' }) totals: DonorTotals;
}

export class AttendanceReportParams extends ReportParams {
  @ApiProperty({ enum: ATTENDANCE_GROUPS, example: 'week' }) group_by: string;
}

export class ReportEvent {
  @ApiProperty({ example: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ type: String, nullable: true, example: 'Sunday service' }) name: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', example: '2026-09-13T15:00:00.000Z' }) starts_at:
    string | null;
}

export class AttendanceTotals {
  @ApiProperty({ example: 1200, description: 'Check-in records.' }) records: number;
  @ApiProperty({ example: 310, description: 'Different people checked in.' }) unique_people: number;
}

export class AttendanceReportRow extends AttendanceTotals {
  @ApiPropertyOptional({ type: ReportEvent, description: 'group_by=event.' }) event?: ReportEvent;
  @ApiPropertyOptional({
    type: ReportRef,
    nullable: true,
    description: 'group_by=campus (the event’s campus; null: none).',
  })
  campus?: ReportRef | null;
  @ApiPropertyOptional({ example: '2026-W37', description: 'group_by=week: the ISO week.' }) period?: string;
}

export class AttendanceReportResponse {
  @ApiProperty({ example: 'attendance' }) report: string;
  @ApiProperty({ type: AttendanceReportParams }) params: AttendanceReportParams;
  @ApiProperty({ example: '2026-09-30T15:04:05.000Z', format: 'date-time' }) generated_at: string;
  @ApiProperty({ type: [AttendanceReportRow] }) rows: AttendanceReportRow[];
  @ApiProperty({ type: AttendanceTotals, description: 'Over the whole range (unique people counted once).' })
  totals: AttendanceTotals;
}

export class GrowthReportParams extends ReportParams {
  @ApiProperty({ enum: ['month'], example: 'month' }) group_by: string;
}

export class GrowthTotals {
  @ApiProperty({
    example: 14,
    description: 'Members created (converted prospects included; members deleted since included).',
  })
  new_members: number;
  @ApiProperty({ example: 20, description: 'Prospects created (deleted ones excluded).' }) new_prospects: number;
  @ApiProperty({ example: 6, description: 'Prospects converted.' }) conversions: number;
  @ApiProperty({ example: 11, description: '`new_members` − members deleted in the month.' }) net_active: number;
}

export class GrowthReportRow extends GrowthTotals {
  @ApiProperty({ example: '2026-09' }) period: string;
}

export class GrowthReportResponse {
  @ApiProperty({ example: 'growth' }) report: string;
  @ApiProperty({ type: GrowthReportParams }) params: GrowthReportParams;
  @ApiProperty({ example: '2026-09-30T15:04:05.000Z', format: 'date-time' }) generated_at: string;
  @ApiProperty({ type: [GrowthReportRow] }) rows: GrowthReportRow[];
  @ApiProperty({ type: GrowthTotals }) totals: GrowthTotals;
}

export class GroupsReportParams {
  @ApiProperty({ example: 8, description: 'Meetings the attendance rate looks back on.' }) last_meetings: number;
}

export class ReportGroup {
  @ApiProperty({ example: 'grp_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Young adults' }) name: string;
}

export class GroupReportRow {
  @ApiProperty({ type: ReportGroup }) group: ReportGroup;
  @ApiProperty({ enum: ['open', 'full', 'closed'], example: 'open' }) status: string;
  @ApiProperty({ example: 12 }) members: number;
  @ApiProperty({ example: 2 }) leaders: number;
  @ApiProperty({
    example: 8,
    description:
      'Meetings counted (at most 8): the last past, not canceled events at which a current member checked in.',
  })
  meetings: number;
  @ApiProperty({ example: 71, description: 'Check-ins of current members at those meetings.' }) attended: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.7396,
    description: '`attended` / (`members` × `meetings`), 4 decimals; null without meetings or members.',
  })
  attendance_rate: number | null;
}

export class GroupTotals {
  @ApiProperty({ example: 14 }) groups: number;
  @ApiProperty({ example: 160, description: 'Memberships (a person in two groups counts twice).' }) members: number;
  @ApiProperty({ example: 25 }) leaders: number;
}

export class GroupsReportResponse {
  @ApiProperty({ example: 'groups' }) report: string;
  @ApiProperty({ type: GroupsReportParams }) params: GroupsReportParams;
  @ApiProperty({ example: '2026-09-30T15:04:05.000Z', format: 'date-time' }) generated_at: string;
  @ApiProperty({ type: [GroupReportRow] }) rows: GroupReportRow[];
  @ApiProperty({ type: GroupTotals }) totals: GroupTotals;
}
