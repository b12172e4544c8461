import { Module } from '@nestjs/common';
import { DeliveryProcessor } from './delivery/delivery.processor';
import { DeliverySweeper } from './delivery/delivery-sweeper';

@Module({ providers: [DeliveryProcessor, DeliverySweeper], exports: [DeliveryProcessor, DeliverySweeper] })
export class WebhooksWorkerModule {}
