import { Global, Module } from '@nestjs/common';
import { ListTotals } from './list-totals.service';

@Global()
@Module({ providers: [ListTotals], exports: [ListTotals] })
export class ListTotalsModule {}
