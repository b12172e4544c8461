import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';

/** For the TypeORM CLI (`npm run migration:generate`); needs DATABASE_URL. */
const config = loadConfig();
if (!config.DATABASE_URL) throw new Error('DATABASE_URL must be set to generate migrations');
export default new DataSource(dataSourceOptions(config.DATABASE_URL, 1));
