import { ApiProperty } from '@nestjs/swagger';

export class AuditEntryResponse {
  @ApiProperty({ example: 'aud_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'members.create' }) action: string;
  @ApiProperty({ example: 'members', nullable: true, type: String }) resource_type: string | null;
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', nullable: true, type: String }) resource_id:
    string | null;
  @ApiProperty({ example: 201 }) status: number;
  @ApiProperty({ example: 'tok_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', nullable: true, type: String }) token_id:
    string | null;
  @ApiProperty({ example: 'Planning sync', nullable: true, type: String }) token_name: string | null;
  @ApiProperty({ example: 'usr_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', nullable: true, type: String }) user_id:
    string | null;
  @ApiProperty({ example: 'req_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', nullable: true, type: String }) request_id:
    string | null;
  @ApiProperty({ example: '203.0.113.7', nullable: true, type: String }) ip: string | null;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) created_at: string;
}
