import { Module } from '@nestjs/common';
import { DonationsModule } from '../donations/donations.module';
import { RecurringGiftsModule } from '../recurring-gifts/recurring-gifts.module';
import { PaymentProcessorController } from './payment-processor.controller';
import { PaymentProcessorService } from './payment-processor.service';
import { PaymentsRepository } from './payments.repository';
import { ProcessorWebhooksController } from './processor-webhooks.controller';
import { ProcessorWebhooksService } from './processor-webhooks.service';
import { StripeGateway } from './stripe-gateway';

/** The church's payment processor: its connection (settings) and its inbound events (CONTRACT §12). */
@Module({
  imports: [DonationsModule, RecurringGiftsModule],
  controllers: [PaymentProcessorController, ProcessorWebhooksController],
  providers: [PaymentProcessorService, ProcessorWebhooksService, PaymentsRepository, StripeGateway],
})
export class PaymentsModule {}
