import { Injectable } from '@nestjs/common';
import { CampusesService } from '../campuses/campuses.service';
import { FundsService } from '../funds/funds.service';
import { MemberLookup } from '../members/member-lookup';
import type { DonationEntity } from './donation.entity';
import { DonationRefs, toDonationResponse } from './donations.mapper';
import type { DonationResponse } from './dto/donation.response';

/** What donations refer to (funds, donors, campuses), read for a whole page at once. */
@Injectable()
export class DonationRefsLoader {
  constructor(
    private readonly funds: FundsService,
    private readonly campuses: CampusesService,
    private readonly members: MemberLookup,
  ) {}

  /** The funds, donors and campuses of `rows`, one query each. */
  async of(rows: DonationEntity[]): Promise<DonationRefs> {
    const donorIds = [...new Set(rows.map((d) => d.donorId).filter((id): id is string => id !== null))];
    const [funds, donors, campuses] = [
      await this.funds.byIdOf(rows),
      await this.members.names(donorIds),
      await this.campuses.byIdOf(rows),
    ];
    return { funds, donors, campuses };
  }

  async respond(donation: DonationEntity): Promise<DonationResponse> {
    return toDonationResponse(donation, await this.of([donation]));
  }
}
