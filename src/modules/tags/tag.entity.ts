import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

export const TAG_COLORS = ['blue', 'brown', 'green', 'grey', 'orange', 'pink', 'purple', 'red'] as const;
export type TagColor = (typeof TAG_COLORS)[number];

export const TAG_NAME_MAX = 50;

@Entity('tags')
export class TagEntity extends TenantScopedEntity {
  @Column('text') name: string;
  @Column('text', { nullable: true }) color: TagColor | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
