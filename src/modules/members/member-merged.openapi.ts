import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';

const EXAMPLE_SURVIVOR = 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f';
const EXAMPLE_REQUEST = 'req_0192f0c1a2b37c4d8e9f0a1b2c3d4e61';

/**
 * The 301 `member_merged` of a read naming a merged member (CONTRACT §17): GET /v1/members/{id}, and
 * with `subPath` its sub-resources (`/v1/members/{id}/<subPath>`), whose `Location` is the survivor's
 * same path.
 */
export function ApiMemberMerged(subPath?: string) {
  const path = `/v1/members/${EXAMPLE_SURVIVOR}${subPath ? `/${subPath}` : ''}`;
  const template = `/v1/members/<survivor>${subPath ? `/${subPath}` : ''}`;
  return applyDecorators(
    ApiResponse({
      status: 301,
      description: `member_merged: this member was merged into another (POST /v1/members/{id}/merge). \`Location\` is the survivor (\`${template}\`), \`merged_into\` its id; the body is a problem document.`,
      headers: {
        Location: {
          description: `The survivor: \`${template.replace('<survivor>', '<mem_ id>')}\`.`,
          schema: { type: 'string', example: path },
        },
      },
      content: {
        'application/problem+json': {
          schema: { $ref: '#/components/schemas/Problem' },
          example: {
            type: 'https://docs.example.org/errors/member_merged',
            title: 'Member merged',
            status: 301,
            detail: `This member was merged into ${EXAMPLE_SURVIVOR}; use that id (the Location header names it).`,
            code: 'member_merged',
            request_id: EXAMPLE_REQUEST,
            merged_into: EXAMPLE_SURVIVOR,
          },
        },
      },
    }),
  );
}
