import { Column, Entity, PrimaryColumn } from 'typeorm';

export const PLANS = ['starter', 'growth', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

@Entity('tenants')
export class TenantEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('text') slug: string;
  @Column('text') name: string;
  @Column('text') plan: Plan;
  @Column('text') status: 'active' | 'suspended';
  @Column('integer', { nullable: true }) quotaRpm: number | null;
  @Column('integer', { nullable: true }) quotaPerDay: number | null;
  @Column('integer', { nullable: true }) quotaBurst: number | null;
  @Column('timestamptz', { nullable: true }) quotaUntil: Date | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
