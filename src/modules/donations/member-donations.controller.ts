import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import { ApiMemberMerged } from '../members/member-merged.openapi';
import { NET_GIVEN_DESCRIPTION } from './donations.controller';
import { MEMBER_DONATION_LIST } from './donations.list';
import { DonationsService } from './donations.service';
import { DonationResponse } from './dto/donation.response';

@ApiTags('Donations')
@Controller('v1/members')
export class MemberDonationsController {
  constructor(private readonly donations: DonationsService) {}

  @Get(':id/donations')
  @Auth({ scopes: ['read:donations'] })
  @ApiOperation({
    summary: "List a member's donations",
    description: `The donations list for one donor (every filter and sort of GET /v1/donations but \`donor_id\`); 404 for a member the church does not have. A member merged into another (POST /v1/members/{id}/merge) is a 301 \`member_merged\` to the survivor’s list (\`Location\`). ${NET_GIVEN_DESCRIPTION}`,
  })
  @ApiList(DonationResponse, MEMBER_DONATION_LIST)
  @ApiMemberMerged('donations')
  list(@Param('id', new ParseIdPipe('mem', 'member')) id: string, @Query() query: Record<string, unknown>) {
    return this.donations.listForMember(id, query);
  }
}
