import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { ChangesHeadResponse, ChangesPageResponse } from './dto/change.response';
import { FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT } from './changes.service';

const PROBLEM = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

export const ApiChangesFeed = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Changes since a cursor (incremental sync)',
      description: [
        'Every change of every record that has a `GET /v1/<collection>/{id}`, in commit order, as `upsert` or `delete` (soft and hard deletes and merges are tombstones; a change of a membership, such as a tag or a group roster, is an upsert of the record whose GET shows it, and so is a change of a value a GET takes from another record: a household’s member names, a batch’s count and total, an event’s attendance count, a pledge’s `given` and `remaining`, a registration’s member name). Only the types the token may read are listed.',
        '',
        '**The guarantee.** Start from `GET /v1/changes/head` (then list the records), or from no cursor (the oldest change kept). Follow `next_cursor` while `has_more` is true; when it is false, keep `next_cursor` and poll again later. You see every change committed after your cursor at least once, including one committed late by a transaction that was already running when you read an earlier page: the cursor is a commit-order watermark (a page only returns changes below the oldest transaction still running, so a change may appear a moment after its commit, never never). Replaying upserts (`object`, the record as it is now) and deletes onto an empty store yields exactly the records the API lists.',
        '',
        'A sync loop with curl:',
        '```',
        'cursor=$(curl -s -H "Authorization: Bearer $TOKEN" -H "X-Tenant: $TENANT" $API/v1/changes/head | jq -r .cursor)',
        '# … list /v1/members (and the other collections) once …',
        'curl -s -H "Authorization: Bearer $TOKEN" -H "X-Tenant: $TENANT" "$API/v1/changes?since=$cursor&types=member,household"',
        '# apply data[], then call again with since=<next_cursor>; when has_more is false, wait and poll',
        '```',
        '',
        `Changes are kept CHANGES_RETENTION_DAYS (30 by default): an older cursor is 410 \`sync_cursor_expired\` (list again, then follow \`head\`). A cursor that this API did not make is a 400. No \`total\`: a feed is not counted.`,
      ].join('\n'),
    }),
    ApiQuery({
      name: 'since',
      required: false,
      description: 'A `next_cursor` or a `head` cursor; absent: the oldest change kept.',
    }),
    ApiQuery({
      name: 'types',
      required: false,
      description:
        'Comma-separated object types (member, household, prospect, tag, prayer_request, campus, fund, donation, batch, recurring_gift, pledge, event, registration, attendance, group, device, webhook_endpoint, custom_field, notification). A type the token cannot read is 403 `scope_insufficient`; default: every type it can.',
      example: 'member,household',
    }),
    ApiQuery({
      name: 'limit',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: FEED_MAX_LIMIT, default: FEED_DEFAULT_LIMIT },
    }),
    ApiOkResponse({
      type: ChangesPageResponse,
      description: 'A page of changes.',
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ChangesPageResponse' },
          example: {
            data: [
              {
                id: 'chg_4711',
                object_type: 'member',
                object_id: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
                op: 'upsert',
                changed_at: '2026-01-05T15:04:05.123Z',
                object: { id: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', first_name: 'Ana', email: 'ana@example.org' },
                previous_attributes: { email: 'ana.old@example.org' },
                merged_into: null,
              },
              {
                id: 'chg_4712',
                object_type: 'member',
                object_id: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5e',
                op: 'delete',
                changed_at: '2026-01-05T15:05:00.000Z',
                object: null,
                merged_into: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
              },
            ],
            next_cursor: 'MS4xMjM0NTYuNzg5',
            has_more: false,
          },
        },
      },
    }),
    ApiResponse({
      status: 410,
      description: 'sync_cursor_expired: the cursor is older than the changes kept.',
      content: PROBLEM,
    }),
  );

export const ApiChangesHead = () =>
  applyDecorators(
    ApiOperation({
      summary: 'A cursor for now',
      description:
        'Take it, list the records, then follow `GET /v1/changes?since=<cursor>`: every change committed after this call is delivered (some committed just before may be delivered again).',
    }),
    ApiOkResponse({ type: ChangesHeadResponse }),
  );

export const ApiHistory = (collection: string, record: string) =>
  applyDecorators(
    ApiOperation({
      summary: `The history of a ${record}`,
      description: `Every change of the ${record}, newest first: who made it (actor), the request, and each field's old and new value as \`GET /v1/${collection}/{id}\` names it (a field that GET does not show is never listed). A deleted ${record}'s history stays readable for as long as its changes are kept (CHANGES_RETENTION_DAYS).`,
    }),
    ApiQuery({ name: 'cursor', required: false, description: 'The `next_cursor` of the previous page.' }),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 250, default: 50 } }),
  );
