import type { ListSpec } from '../../common/lists/list-spec';
import type { DeviceEntity } from './device.entity';
import { timestampSort } from '../../common/lists/list-spec-parts';

export const DEVICE_LIST: ListSpec<DeviceEntity> = {
  resource: 'device',
  defaultSort: 'created_at',
  sorts: { created_at: timestampSort('created_at', (row) => row.createdAt) },
  filters: {},
};
