import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date', 'boolean', 'select'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** A key members may carry in `custom_fields`: snake_case, as the member body's own rule has it. */
export const CUSTOM_FIELD_KEY = /^[a-z][a-z0-9_]{0,39}$/;

@Entity('custom_field_definitions')
export class CustomFieldEntity extends TenantScopedEntity {
  @Column('text') key: string;
  @Column('text') label: string;
  @Column('text') type: CustomFieldType;
  /** Select fields only (non-empty); null otherwise. */
  @Column('text', { array: true, nullable: true }) options: string[] | null;
  @Column('boolean') required: boolean;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
