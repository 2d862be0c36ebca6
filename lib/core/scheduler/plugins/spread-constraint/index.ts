/**
 * `SpreadConstraint` filter (Karmada `plugins/spreadconstraint`): spreading by provider, region or zone
 * needs clusters that declare that property.
 */
import { clusterZones } from '../../../placement/affinity.ts';
import {
  type ClusterInfo,
  type FilterPlugin,
  type ScheduleUnit,
  SUCCESS,
  unschedulable,
} from '../../framework/interface.ts';

export const NAME = 'SpreadConstraint';

export function create(): FilterPlugin {
  return {
    name: NAME,
    filter(unit: ScheduleUnit, cluster: ClusterInfo) {
      for (const c of unit.spec.placement?.spreadConstraints ?? []) {
        const spec = cluster.cluster.spec ?? {};
        if (c.spreadByField === 'provider' && !spec.provider) {
          return unschedulable('cluster(s) did not have provider property');
        }
        if (c.spreadByField === 'region' && !spec.region) {
          return unschedulable('cluster(s) did not have region property');
        }
        if (c.spreadByField === 'zone' && clusterZones(cluster.cluster).length === 0) {
          return unschedulable('cluster(s) did not have zones property');
        }
      }
      return SUCCESS;
    },
  };
}
