// Upstream's seed data (db/h2/data.sql): same ids, same values, inserted in the same order.
import type { NamedRecord, OwnerRecord, PetRecord, VetRecord, VisitRecord } from './types.js';

/** Tables that take a record synchronously (the in-memory store's, filled before the app answers). */
interface Sink<T> {
  insert(fields: Omit<T, 'id'>): unknown;
}
export interface SeedTarget {
  owners: Sink<OwnerRecord>;
  pets: Sink<PetRecord>;
  visits: Sink<VisitRecord>;
  petTypes: Sink<NamedRecord>;
  specialties: Sink<NamedRecord>;
  vets: Sink<VetRecord>;
}

const OWNERS: [string, string, string, string, string][] = [
  ['George', 'Franklin', '110 W. Liberty St.', 'Madison', '6085551023'],
  ['Betty', 'Davis', '638 Cardinal Ave.', 'Sun Prairie', '6085551749'],
  ['Eduardo', 'Rodriquez', '2693 Commerce St.', 'McFarland', '6085558763'],
  ['Harold', 'Davis', '563 Friendly St.', 'Windsor', '6085553198'],
  ['Peter', 'McTavish', '2387 S. Fair Way', 'Madison', '6085552765'],
  ['Jean', 'Coleman', '105 N. Lake St.', 'Monona', '6085552654'],
  ['Jeff', 'Black', '1450 Oak Blvd.', 'Monona', '6085555387'],
  ['Maria', 'Escobito', '345 Maple St.', 'Madison', '6085557683'],
  ['David', 'Schroeder', '2749 Blackhawk Trail', 'Madison', '6085559435'],
  ['Carlos', 'Estaban', '2335 Independence La.', 'Waunakee', '6085555487'],
];
const TYPES = ['cat', 'dog', 'lizard', 'snake', 'bird', 'hamster'];
const SPECIALTIES = ['radiology', 'surgery', 'dentistry'];
const VETS: [string, string, number[]][] = [
  ['James', 'Carter', []],
  ['Helen', 'Leary', [1]],
  ['Linda', 'Douglas', [2, 3]],
  ['Rafael', 'Ortega', [2]],
  ['Henry', 'Stevens', [1]],
  ['Sharon', 'Jenkins', []],
];
// name, birthDate, typeId, ownerId
const PETS: [string, string, number, number][] = [
  ['Leo', '2010-09-07', 1, 1],
  ['Basil', '2012-08-06', 6, 2],
  ['Rosy', '2011-04-17', 2, 3],
  ['Jewel', '2010-03-07', 2, 3],
  ['Iggy', '2010-11-30', 3, 4],
  ['George', '2010-01-20', 4, 5],
  ['Samantha', '2012-09-04', 1, 6],
  ['Max', '2012-09-04', 1, 6],
  ['Lucky', '2011-08-06', 5, 7],
  ['Mulligan', '2007-02-24', 2, 8],
  ['Freddy', '2010-03-09', 5, 9],
  ['Lucky', '2010-06-24', 2, 10],
  ['Sly', '2012-06-08', 1, 10],
];
const VISITS: [number, string, string][] = [
  [7, '2013-01-01', 'rabies shot'],
  [8, '2013-01-02', 'rabies shot'],
  [8, '2013-01-03', 'neutered'],
  [7, '2013-01-04', 'spayed'],
];

export function seed(store: SeedTarget): void {
  for (const name of TYPES) store.petTypes.insert({ name });
  for (const name of SPECIALTIES) store.specialties.insert({ name });
  for (const [firstName, lastName, specialtyIds] of VETS)
    store.vets.insert({ firstName, lastName, specialtyIds });
  for (const [firstName, lastName, address, city, telephone] of OWNERS)
    store.owners.insert({ firstName, lastName, address, city, telephone });
  for (const [name, birthDate, typeId, ownerId] of PETS)
    store.pets.insert({ name, birthDate, typeId, ownerId });
  for (const [petId, date, description] of VISITS) store.visits.insert({ petId, date, description });
}
