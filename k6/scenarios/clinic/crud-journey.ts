// Clinic CRUD journey on the open instance (9966), modelled on upstream PetClinic's JMeter CRUD
// benchmark (src/test/jmeter/petclinic-jmeter-crud-benchmark.jmx): create an owner, add a pet, add
// a visit (POST /visits with the pet id), read the owner and the pet, update both, delete both.
// Unlike the benchmark, every step carries a check.
import { check, group } from 'k6';
import { clinicClient, createdId } from '../../lib/clinic.js';
import { clinicConfig } from '../../lib/config.js';
import { summaryHandler } from '../../lib/handle-summary.js';
import { endIteration } from '../../lib/iteration.js';
import { rampingOptions, type ScenarioPlan } from '../../lib/options.js';
import { THINK_TIME } from '../../lib/think-time.js';

const plan: ScenarioPlan = {
  name: 'clinic_crud',
  testType: 'journey',
  suite: 'clinic-crud',
  defaultProfile: 'smoke',
  thresholds: { 'http_req_duration{endpoint:clinic}': ['p(95)<1500'] },
};
const clinic = clinicClient(clinicConfig(__ENV).baseUrl);

export const options = rampingOptions(plan, __ENV);

const owner = (address: string, telephone: string) => ({
  firstName: 'Load',
  lastName: 'Loadtester',
  address,
  city: 'Perfville',
  telephone,
});
const pet = (name: string) => ({ name, birthDate: '2020-01-15', type: { id: 2, name: 'dog' } });

export default function (): void {
  crud();
  endIteration(THINK_TIME.clinic);
}

function crud(): void {
  const ownerId = group('01_create_owner', () =>
    createdId(clinic.post('/owners', owner('1 Bench Street', '6085551023'), '/owners'), 'owner'),
  );
  // Without an owner there is nothing to add to, read or delete.
  if (ownerId === undefined) return;
  const petId = group('02_add_pet', () =>
    createdId(clinic.post(`/owners/${ownerId}/pets`, pet('Rex'), '/owners/{ownerId}/pets'), 'pet'),
  );
  if (petId !== undefined) {
    group('03_add_visit', () => {
      createdId(
        clinic.post('/visits', { petId, date: '2026-11-22', description: 'load test check-up' }, '/visits'),
        'visit',
      );
    });
  }
  group('04_read', () => {
    check(clinic.get(`/owners/${ownerId}`, '/owners/{ownerId}'), {
      'owner read 200': (r) => r.status === 200,
    });
    if (petId !== undefined)
      check(clinic.get(`/owners/${ownerId}/pets/${petId}`, '/owners/{ownerId}/pets/{petId}'), {
        'pet read 200': (r) => r.status === 200,
      });
  });
  group('05_update', () => {
    check(clinic.put(`/owners/${ownerId}`, owner('2 Bench Street', '6085551024'), '/owners/{ownerId}'), {
      'owner updated 204': (r) => r.status === 204,
    });
    if (petId !== undefined)
      check(clinic.put(`/pets/${petId}`, pet('Rex II'), '/pets/{petId}'), {
        'pet updated 204': (r) => r.status === 204,
      });
  });
  group('06_delete', () => {
    if (petId !== undefined)
      check(clinic.del(`/pets/${petId}`, '/pets/{petId}'), { 'pet deleted 204': (r) => r.status === 204 });
    check(clinic.del(`/owners/${ownerId}`, '/owners/{ownerId}'), {
      'owner deleted 204': (r) => r.status === 204,
    });
  });
}

export const handleSummary = summaryHandler(plan, 'clinic-crud');
