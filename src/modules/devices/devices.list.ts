import type { ListSpec } from '../../common/lists/list-spec';
import type { DeviceEntity } from './device.entity';

export const DEVICE_LIST: ListSpec<DeviceEntity> = {
  resource: 'device',
  defaultSort: 'created_at',
  sorts: { created_at: { column: 'created_at', type: 'timestamp', value: (row) => row.createdAt.toISOString() } },
  filters: {},
};
