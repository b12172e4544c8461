import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import type { TagEntity } from '../tags/tag.entity';
import { TagsService } from '../tags/tags.service';
import type { MemberResponse } from './dto/member.response';
import type { MemberEntity } from './member.entity';
import { MembersRepository } from './members.repository';
import { MembersService } from './members.service';

/**
 * PUT and DELETE /v1/members/{id}/tags/{tag}. The tag is locked FOR KEY SHARE before the member
 * (a concurrent tag delete, which locks the tag first and then its members, waits or has
 * happened); the member is locked like any member write, so two concurrent adds of one tag run
 * one after the other: one row, one `tag.added`.
 */
@Injectable()
export class MemberTagsService {
  constructor(
    private readonly members: MembersRepository,
    private readonly membersService: MembersService,
    private readonly tags: TagsService,
  ) {}

  async add(memberId: string, tagRef: string): Promise<MemberResponse> {
    const tag = await this.requireTag(tagRef);
    const member = await this.requireMember(memberId);
    if (await this.tags.attach(tag, member)) await this.members.update(member.id, { updatedAt: new Date() });
    return this.membersService.get(member.id);
  }

  async remove(memberId: string, tagRef: string): Promise<void> {
    const tag = await this.requireTag(tagRef);
    const member = await this.requireMember(memberId);
    if (await this.tags.detach(tag, member)) await this.members.update(member.id, { updatedAt: new Date() });
  }

  private async requireTag(ref: string): Promise<TagEntity> {
    const tag = await this.tags.resolve(ref, 'for_key_share');
    if (!tag) throw AppError.notFound('tag');
    return tag;
  }

  /** The member, or the survivor of the merge `id` went into (CONTRACT §17): the tag lands on the survivor. */
  private async requireMember(id: string): Promise<MemberEntity> {
    const member = await this.members.findLiveOrSurvivor(id, 'for_no_key_update');
    if (!member) throw AppError.notFound('member');
    return member;
  }
}
