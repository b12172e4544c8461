import { ApiProperty } from '@nestjs/swagger';

export class RegisteredMember {
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'María' }) first_name: string;
  @ApiProperty({ example: 'González' }) last_name: string;
}

export class RegisteredGuest {
  @ApiProperty({ example: 'Ana' }) first_name: string;
  @ApiProperty({ example: 'Torres' }) last_name: string;
  @ApiProperty({ example: 'ana.torres@example.org', nullable: true, type: String }) email: string | null;
}

export class RegistrationResponse {
  @ApiProperty({ example: 'reg_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) event_id: string;
  @ApiProperty({ type: RegisteredMember, nullable: true, description: 'The member who registered; null for a guest.' })
  member: RegisteredMember | null;
  @ApiProperty({ type: RegisteredGuest, nullable: true, description: 'The guest who registered; null for a member.' })
  guest: RegisteredGuest | null;
  @ApiProperty({ example: '2026-11-20T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-11-20T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}
